/**
 * A plane embedding of a growing simple graph on nodes 0 … n−1 as a rotation system (`cw`, `ccw`
 * at v·n + w, `first[v]`; rotation-system.ts), for the PMFG's exact shortcut: when u and v lie on
 * one face, G + uv is planar and the edge goes into that face (splitting it), no test needed.
 * Faces are traced by (a, b) -> (b, ccw(b, a)). After a test that re-embeds a component
 * (PlanarityTester.embed), `check` verifies it — each rotation a cyclic order of exactly the
 * node's neighbours, and V − E + F = 2 (genus 0) — so a wrong embedding could only cost tests,
 * never a result.
 */
import { addCw, traceFace } from "./rotation-system.ts";

export class PlaneEmbedding {
  readonly cw: Int32Array;
  readonly ccw: Int32Array;
  readonly first: Int32Array;
  private readonly adj: Uint8Array;
  private readonly deg: Int32Array;
  /** Half-edges (a, b) at a·n + b traced in pass `epoch`. */
  private readonly seen: Int32Array;
  private epoch = 0;
  private readonly queue: Int32Array;
  private readonly inComp: Int32Array;
  /** One face's nodes (traceFace): a plane graph has fewer than 6n half-edges, and a face passes each once. */
  private readonly face: Int32Array;
  /** False once a check failed: then nothing is claimed (callers test). */
  valid = true;

  constructor(private readonly n: number) {
    this.cw = new Int32Array(n * n);
    this.ccw = new Int32Array(n * n);
    this.first = new Int32Array(n).fill(-1);
    this.adj = new Uint8Array(n * n);
    this.deg = new Int32Array(n);
    this.seen = new Int32Array(n * n);
    this.queue = new Int32Array(n);
    this.inComp = new Int32Array(n);
    this.face = new Int32Array(6 * n);
  }

  /** Back to the empty graph (the rotation arrays are only read for edges the graph has). */
  reset(): void {
    this.first.fill(-1);
    this.adj.fill(0);
    this.deg.fill(0);
    this.valid = true;
  }

  /** Records edge (u, v) in the graph only (its rotation comes from a re-embedding). */
  addEdge(u: number, v: number): void {
    this.adj[u * this.n + v] = this.adj[v * this.n + u] = 1;
    this.deg[u]++;
    this.deg[v]++;
  }

  /** Edge (u, v) between two components: any corner of each will do. */
  addBridge(u: number, v: number): void {
    this.addEdge(u, v);
    if (!this.valid) return;
    const { cw, ccw, first, n } = this;
    addCw(cw, ccw, first, n, u, v, first[u]);
    addCw(cw, ccw, first, n, v, u, first[v]);
  }

  /**
   * When u and v (one component, not adjacent) share a face, adds edge (u, v) inside it and
   * returns true; else false and nothing changes.
   */
  addInFace(u: number, v: number): boolean {
    if (!this.valid || this.first[u] === -1 || this.first[v] === -1 || !this.faceHolding(u, v, -1)) return false;
    const { cw, ccw, first, n, found } = this;
    addCw(cw, ccw, first, n, u, v, found[1]);
    addCw(cw, ccw, first, n, v, u, found[3]);
    this.addEdge(u, v);
    return true;
  }

  /**
   * When v (or u) has 1 or 2 neighbours and, in the embedding without it, some face holds u and
   * all of them: v moves into that face, joined to those corners and to u's (G + uv is then plane
   * by construction; `check` verifies the rotations). Returns true; else false and nothing changes.
   */
  addByMoving(u: number, v: number): boolean {
    const { deg } = this;
    if (!this.valid) return false;
    if (deg[v] !== 1 && deg[v] !== 2) {
      if (deg[u] !== 1 && deg[u] !== 2) return false;
      const t = u;
      u = v;
      v = t;
    }
    const { cw, ccw, first, n, found } = this;
    if (first[u] === -1 || first[v] === -1) return false;
    const x = first[v];
    const y = deg[v] === 2 ? cw[v * n + x] : -1;
    // Take v out of its neighbours' rotations (remembering where it was).
    const px = this.unlink(x, v);
    const py = y === -1 ? -1 : this.unlink(y, v);
    if (!this.faceHolding(u, x, y)) {
      addCw(cw, ccw, first, n, x, v, px);
      if (y !== -1) addCw(cw, ccw, first, n, y, v, py);
      return false;
    }
    // v inside the face: at each corner (in the face's order) v goes before that corner's outgoing
    // edge, and v's clockwise rotation lists the corners in the same order.
    first[v] = -1;
    let prev = -1;
    for (let k = 0; k < this.corners; k++) {
      const z = found[2 * k];
      addCw(cw, ccw, first, n, z, v, found[2 * k + 1]);
      addCw(cw, ccw, first, n, v, z, prev);
      prev = z;
    }
    this.addEdge(u, v);
    this.checkMoved(v); // the edge fits either way; a failed check only stops further claims
    return true;
  }

  /**
   * check() for addByMoving's result, locally: the rotations at v and its neighbours, and the faces
   * through v. Removing v from a plane embedding leaves one; putting it back with k edges keeps
   * V − E + F = 2 iff the faces through v grow by k − 1, which holds iff no face passes v twice
   * (k faces through v, its corners all in one former face). False also clears `valid`.
   */
  private checkMoved(v: number): boolean {
    const { cw, ccw, first, n, adj, deg, seen } = this;
    for (let q = -1; q < deg[v]; q++) {
      // q = −1: v itself; then its neighbours in rotation order.
      let x = v;
      if (q >= 0) {
        x = first[v];
        for (let k = 0; k < q; k++) x = cw[v * n + x];
      }
      let w = first[x];
      if (w === -1) return (this.valid = false);
      const mark = ++this.epoch;
      for (let k = 0; k < deg[x]; k++) {
        if (w < 0 || w >= n || !adj[x * n + w] || seen[x * n + w] === mark || ccw[x * n + cw[x * n + w]] !== w) return (this.valid = false);
        seen[x * n + w] = mark;
        w = cw[x * n + w];
      }
      if (w !== first[x]) return (this.valid = false);
    }
    // A face passing v twice marks another corner of v than the one it was traced from, found
    // then or when the loop reaches that corner.
    const faceMark = ++this.epoch;
    let z = first[v];
    for (let k = 0; k < deg[v]; k++) {
      if (seen[v * n + z] === faceMark || traceFace(ccw, n, v, z, seen, faceMark, 2 * n * n, null) < 0) return (this.valid = false);
      z = cw[v * n + z];
    }
    return true;
  }

  /** Removes v from x's rotation; returns the neighbour before it (−1: v was x's only one). */
  private unlink(x: number, v: number): number {
    const { cw, ccw, first, n } = this;
    const p = ccw[x * n + v];
    const q = cw[x * n + v];
    if (p === v) {
      first[x] = -1;
      return -1;
    }
    cw[x * n + p] = q;
    ccw[x * n + q] = p;
    if (first[x] === v) first[x] = q;
    return p;
  }

  /** The corners faceHolding found: `corners` pairs in `found`. */
  private readonly found = new Int32Array(6);
  private corners = 0;

  /**
   * Whether a face around u also holds x (and y ≥ 0), tracing the faces around u; if so its
   * corners at u, x and y in the face's order, each as (node z, the face's next node c): the face
   * leaves z along (z, c), so an edge added at z clockwise after c (addCw) lies inside it.
   */
  private faceHolding(u: number, x: number, y: number): boolean {
    const { cw, ccw, first, n, seen, found, face } = this;
    if (first[x] === -1 || (y !== -1 && first[y] === -1)) return false;
    const epoch = ++this.epoch;
    const start = first[u];
    let w = start;
    do {
      if (seen[u * n + w] !== epoch) {
        const len = traceFace(ccw, n, u, w, seen, epoch, face.length, face);
        if (len < 0) return (this.valid = false);
        let k = 1;
        let gotX = false;
        let gotY = y === -1;
        found[0] = u;
        found[1] = w;
        for (let p = 1; p < len; p++) {
          const b = face[p];
          if ((b === x && !gotX) || (b === y && !gotY)) {
            if (b === x) gotX = true;
            else gotY = true;
            found[2 * k] = b;
            found[2 * k + 1] = face[p + 1 < len ? p + 1 : 0];
            k++;
            if (gotX && gotY) {
              this.corners = k;
              return true;
            }
          }
        }
      }
      w = cw[u * n + w];
    } while (w !== start);
    return false;
  }

  /** Verifies the rotation system on u's component (after PlanarityTester.embed); false also clears `valid`. */
  check(u: number): boolean {
    const { cw, ccw, first, n, adj, deg, seen, queue, inComp } = this;
    const epoch = ++this.epoch;
    // The component by BFS over the graph's own edges, then each rotation against the neighbours.
    let head = 0;
    let tail = 0;
    queue[tail++] = u;
    inComp[u] = epoch;
    let edges2 = 0;
    while (head < tail) {
      const x = queue[head++];
      edges2 += deg[x];
      let w = first[x];
      if (deg[x] > 0 && w === -1) return (this.valid = false);
      for (let k = 0; k < deg[x]; k++) {
        if (w < 0 || w >= n || !adj[x * n + w] || seen[x * n + w] === epoch || ccw[x * n + cw[x * n + w]] !== w)
          return (this.valid = false);
        seen[x * n + w] = epoch;
        if (inComp[w] !== epoch) {
          inComp[w] = epoch;
          queue[tail++] = w;
        }
        w = cw[x * n + w];
      }
      if (deg[x] > 0 && w !== first[x]) return (this.valid = false);
    }
    if (edges2 === 0) return true;
    // Faces: every half-edge once.
    const faceEpoch = ++this.epoch;
    let faces = 0;
    for (let q = 0; q < tail; q++) {
      const x = queue[q];
      let w = first[x];
      for (let k = 0; k < deg[x]; k++) {
        if (seen[x * n + w] !== faceEpoch) {
          faces++;
          if (traceFace(ccw, n, x, w, seen, faceEpoch, edges2, null) < 0) return (this.valid = false);
        }
        w = cw[x * n + w];
      }
    }
    if (tail - edges2 / 2 + faces !== 2) this.valid = false;
    return this.valid;
  }
}
