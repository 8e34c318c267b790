/**
 * For each 3-connected set S of rigid-sets.ts: the components of G − S, and for each component
 * the faces of S holding all its attachments (its neighbours in S), which is what refuses a
 * candidate with an end outside S. Computed when first asked after S's members or faces changed,
 * and kept up to date edge by edge otherwise.
 */
import type { RigidSetFaces } from "./rigid-set-faces.ts";

export class RigidSetComponents {
  /** Per set id, refreshed lazily after a change: each node's component of G − S (−1 = in S). */
  private readonly comp: Int32Array[] = [];
  /** Per set id and component: the faces holding all its attachments (null = no attachment). */
  private readonly compFaces: (number[] | null)[][] = [];
  /** fresh[s] = 1 while set s's comp and compFaces hold for G; a change of s's members or faces clears it. */
  private readonly fresh: Uint8Array;
  private readonly stack: number[] = [];
  private readonly att: number[] = [];
  /** Attachment marks of compute(), by pass. */
  private readonly mark: Int32Array;
  private pass = 0;

  /** `set`, `nbr` and `deg` are RigidSets' (set ids; G's neighbour lists, n per node), read as they change. */
  constructor(
    private readonly n: number,
    private readonly set: Int32Array,
    private readonly nbr: Int32Array,
    private readonly deg: Int32Array,
    private readonly faces: RigidSetFaces,
  ) {
    this.fresh = new Uint8Array(n);
    this.mark = new Int32Array(n);
  }

  /** Nothing computed (the pass counter runs on). */
  reset(): void {
    this.fresh.fill(0);
  }

  /** Set s's members or faces changed: computed again when next asked. */
  changed(s: number): void {
    this.fresh[s] = 0;
  }

  /**
   * True when set s proves G + uv non-planar through a component of G − S (u, v not both in S;
   * inU, inV: whether each is): an end in S on no face holding the other end's component's
   * attachments, or two components whose attachments no face holds together.
   */
  refuses(s: number, u: number, v: number, inU: boolean, inV: boolean): boolean {
    if (this.fresh[s] === 0) this.compute(s);
    const comp = this.comp[s];
    const held = this.compFaces[s];
    if (inU || inV) {
      const fs = held[comp[inU ? v : u]];
      const x = inU ? u : v;
      if (fs !== null && !onAny(this.faces.on, fs, x)) return true;
    } else if (comp[u] !== comp[v]) {
      const a = held[comp[u]];
      const b = held[comp[v]];
      if (a !== null && b !== null && !shareAny(a, b)) return true;
    }
    return false;
  }

  /**
   * A kept edge (u, v), before G records it: in each fresh set's components, inside S it cuts a
   * face (recompute); from S to a component it adds an attachment; between two components it
   * joins them; within one it changes nothing.
   */
  addEdge(u: number, v: number): void {
    for (let r = 0; r < this.n; r++) if (this.fresh[r] === 1) this.edgeInto(r, u, v);
  }

  /** Updates fresh set r's components for a new edge (u, v), or clears fresh[r]. */
  private edgeInto(r: number, u: number, v: number): void {
    const comp = this.comp[r];
    const held = this.compFaces[r];
    const cu = comp[u];
    const cv = comp[v];
    if (cu === -1 && cv === -1) this.fresh[r] = 0;
    else if (cu === -1 || cv === -1) {
      // x ∈ S becomes an attachment of the other end's component: keep the faces through x.
      const x = cu === -1 ? u : v;
      const k = cu === -1 ? cv : cu;
      const fs = held[k];
      if (fs === null) held[k] = this.faces.facesOf[x].slice();
      else {
        // In place: each component's list is its own.
        const on = this.faces.on;
        let w = 0;
        for (let q = 0; q < fs.length; q++) if (on[fs[q]][x] === 1) fs[w++] = fs[q];
        fs.length = w;
      }
    } else if (cu !== cv) {
      for (let z = 0; z < this.n; z++) if (comp[z] === cv) comp[z] = cu;
      const a = held[cu];
      const b = held[cv];
      if (a === null) held[cu] = b;
      else if (b !== null) {
        let w = 0;
        for (let q = 0; q < a.length; q++) if (b.includes(a[q])) a[w++] = a[q];
        a.length = w;
      }
      held[cv] = null;
    }
  }

  /** Set s's components of G − S, and the faces able to hold each. */
  private compute(s: number): void {
    const { n, nbr, deg, set, mark, stack, att } = this;
    const { on, facesOf } = this.faces;
    this.fresh[s] = 1;
    this.comp[s] ??= new Int32Array(n);
    const comp = this.comp[s];
    for (let x = 0; x < n; x++) comp[x] = set[x] === s ? -1 : -2;
    const held: (number[] | null)[] = [];
    for (let x = 0; x < n; x++) {
      if (comp[x] !== -2) continue;
      const id = held.length;
      const pass = ++this.pass;
      att.length = 0;
      comp[x] = id;
      stack.push(x);
      while (stack.length > 0) {
        const y = stack.pop()!;
        for (let a = 0; a < deg[y]; a++) {
          const z = nbr[y * n + a];
          if (comp[z] === -2) {
            comp[z] = id;
            stack.push(z);
          } else if (comp[z] === -1 && mark[z] !== pass) {
            mark[z] = pass;
            att.push(z);
          }
        }
      }
      if (att.length === 0) held.push(null);
      else {
        const fs: number[] = [];
        for (const f of facesOf[att[0]]) {
          const holds = on[f];
          let all = true;
          for (let k = 1; k < att.length && all; k++) all = holds[att[k]] === 1;
          if (all) fs.push(f);
        }
        held.push(fs);
      }
    }
    this.compFaces[s] = held;
  }
}

function onAny(on: Uint8Array[], faces: number[], x: number): boolean {
  for (const f of faces) if (on[f][x] === 1) return true;
  return false;
}

function shareAny(a: number[], b: number[]): boolean {
  for (const f of a) if (b.includes(f)) return true;
  return false;
}
