/**
 * The faces of the PMFG's 3-connected node sets (rigid-sets.ts). A 3-connected planar graph has
 * one plane embedding up to mirroring (Whitney), so each face is a fixed cycle of nodes: kept as
 * that cycle, with which nodes lie on it and which faces pass each node. Faces are added whole,
 * cut (by a chord, or into a fan by a node joining), or read off the PMFG's plane embedding
 * restricted to one set.
 */
import type { PlaneEmbedding } from "./plane-embedding.ts";
import { traceFace } from "./rotation-system.ts";

export class RigidSetFaces {
  /** Face cycles (node lists) of every set; a face replaced by a cut keeps its id for one piece. */
  readonly faces: number[][] = [];
  /** on[f][x] = 1 iff node x lies on face f. */
  readonly on: Uint8Array[] = [];
  /** Ids of the faces through each node. */
  readonly facesOf: number[][];
  /** Restricted rotations of readOff(): at b·n + a, the neighbour before a around b (within the set). */
  private readonly prev: Int32Array;
  private readonly traced: Int32Array;
  /** One face's nodes (traceFace; a plane graph has fewer than 6n half-edges). */
  private readonly face: Int32Array;
  private epoch = 0;

  constructor(private readonly n: number) {
    this.prev = new Int32Array(n * n);
    this.traced = new Int32Array(n * n);
    this.face = new Int32Array(6 * n);
    this.facesOf = Array.from({ length: n }, () => []);
  }

  /** No faces (the epoch runs on). */
  reset(): void {
    for (let x = 0; x < this.n; x++) this.facesOf[x] = [];
    this.faces.length = 0;
  }

  /** A face through both u and v, −1 = none. */
  shared(u: number, v: number): number {
    for (const f of this.facesOf[u]) if (this.on[f][v] === 1) return f;
    return -1;
  }

  /** The face through all of `nodes` (≥ 3 of one set: at most one face holds them), undefined = none. */
  holding(nodes: number[]): number | undefined {
    const { on } = this;
    return this.facesOf[nodes[0]].find((g) => nodes.every((x) => on[g][x] === 1));
  }

  add(c: number[]): void {
    const id = this.faces.length;
    this.faces.push(c);
    // on[] outlives faces[] across reset(): its arrays are reused.
    let on = this.on[id];
    if (on === undefined) this.on.push((on = new Uint8Array(this.n)));
    else on.fill(0);
    for (const x of c) {
      this.facesOf[x].push(id);
      on[x] = 1;
    }
  }

  /**
   * Cuts face f at its nodes `at`: into the pieces between consecutive ones, each closed by the
   * new node w (w ≥ 0, a fan), or (w = −1, `at` = a chord's two ends) into the two sides of the chord.
   */
  cut(f: number, at: number[], w: number): void {
    const c = this.faces[f];
    const pos: number[] = [];
    for (let p = 0; p < c.length; p++) if (at.includes(c[p])) pos.push(p);
    for (const x of c) {
      const l = this.facesOf[x];
      l.splice(l.indexOf(f), 1);
      this.on[f][x] = 0;
    }
    for (let q = 0; q < pos.length; q++) {
      const piece = w >= 0 ? [w] : [];
      const end = q + 1 < pos.length ? pos[q + 1] : pos[0] + c.length;
      for (let p = pos[q]; p <= end; p++) piece.push(c[p % c.length]);
      if (q > 0) this.add(piece);
      else {
        this.faces[f] = piece;
        for (const x of piece) {
          this.facesOf[x].push(f);
          this.on[f][x] = 1;
        }
      }
    }
  }

  /**
   * Set s's faces anew (set[x] = s for its nodes): the plane embedding's rotations restricted to
   * s, faces traced (a, b) -> (b, before(a) at b). False when a face does not close (not an
   * embedding: the caller drops the set).
   */
  readOff(set: Int32Array, s: number, plane: PlaneEmbedding): boolean {
    const { n, prev, traced, facesOf, face } = this;
    const { cw, first } = plane;
    for (let x = 0; x < n; x++) {
      if (set[x] !== s) continue;
      facesOf[x] = [];
      // x's neighbours in s, clockwise: each one's predecessor.
      const f = first[x];
      let last = -1;
      let head = -1;
      let w = f;
      do {
        if (set[w] === s) {
          if (last === -1) head = w;
          else prev[x * n + w] = last;
          last = w;
        }
        w = cw[x * n + w];
      } while (w !== f);
      prev[x * n + head] = last;
    }
    const epoch = ++this.epoch;
    for (let x = 0; x < n; x++) {
      if (set[x] !== s) continue;
      const f = first[x];
      let w = f;
      do {
        if (set[w] === s && traced[x * n + w] !== epoch) {
          const len = traceFace(prev, n, x, w, traced, epoch, face.length, face);
          if (len < 0) return false;
          // A plain loop: Array.from(face.subarray(…)) made the rolling PMFG ~5% slower.
          const cycle: number[] = [];
          for (let p = 0; p < len; p++) cycle.push(face[p]);
          this.add(cycle);
        }
        w = cw[x * n + w];
      } while (w !== f);
    }
    return true;
  }
}
