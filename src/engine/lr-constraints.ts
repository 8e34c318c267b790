/**
 * The left-right test's second phase, networkx's dfs_testing (planarity.py, LRPlanarity): a DFS
 * over an orientation's out-edges in nesting order (lr-orientation.ts) that keeps the conflict
 * pairs of return edges on a stack and fails as soon as no left-right partition exists. What it
 * leaves in `ref` and `side` is the embedding phase's input (lr-embedding.ts).
 */
import type { LrOrientation } from "./lr-orientation.ts";

export class LrConstraints {
  readonly ref: Int32Array;
  /** Side of an edge relative to its ref (1 or −1; networkx's `side`), for the embedding phase. */
  readonly side: Int8Array;
  private readonly lowptEdge: Int32Array;
  private readonly stackBottom: Int32Array;
  // Conflict-pair stack: intervals (low, high) of return edges, -1 = none.
  private readonly sLL: Int32Array;
  private readonly sLH: Int32Array;
  private readonly sRL: Int32Array;
  private readonly sRH: Int32Array;
  private sp = 0;
  /** The orientation's lowpoints (read on every conflict test). */
  private readonly lowpt: Int32Array;

  constructor(private readonly o: LrOrientation) {
    const m = Math.max(1, o.maxEdges);
    this.ref = new Int32Array(m);
    this.side = new Int8Array(m);
    this.lowptEdge = new Int32Array(m);
    this.stackBottom = new Int32Array(m);
    this.sLL = new Int32Array(m + 1);
    this.sLH = new Int32Array(m + 1);
    this.sRL = new Int32Array(m + 1);
    this.sRH = new Int32Array(m + 1);
    this.lowpt = o.lowpt;
  }

  /** Whether a left-right partition exists for the oriented edges from the first nRoots roots (edge ids < m, nodes < n). */
  hold(n: number, m: number, nRoots: number): boolean {
    const { o } = this;
    o.ind.fill(0, 0, n);
    o.skip.fill(0, 0, m);
    this.ref.fill(-1, 0, m);
    this.side.fill(1, 0, m);
    this.lowptEdge.fill(-1, 0, m);
    this.sp = 0;
    for (let k = 0; k < nRoots; k++) if (!this.test(o.roots[k])) return false;
    return true;
  }

  private conflicting(low: number, high: number, b: number): boolean {
    return !(low === -1 && high === -1) && this.lowpt[high] > this.lowpt[b];
  }

  private lowest(q: number): number {
    const { lowpt, sLL, sLH, sRL, sRH } = this;
    if (sLL[q] === -1 && sLH[q] === -1) return lowpt[sRL[q]];
    if (sRL[q] === -1 && sRH[q] === -1) return lowpt[sLL[q]];
    return Math.min(lowpt[sLL[q]], lowpt[sRL[q]]);
  }

  private push(ll: number, lh: number, rl: number, rh: number): void {
    const q = this.sp++;
    this.sLL[q] = ll;
    this.sLH[q] = lh;
    this.sRL[q] = rl;
    this.sRH[q] = rh;
  }

  /** networkx's ConflictPair.swap on stack entry q (one just popped): its left and right intervals trade places. */
  private swap(q: number): void {
    const { sLL, sLH, sRL, sRH } = this;
    const l = sLL[q];
    const h = sLH[q];
    sLL[q] = sRL[q];
    sLH[q] = sRH[q];
    sRL[q] = l;
    sRH[q] = h;
  }

  /** networkx's dfs_testing: false as soon as no left-right partition exists. */
  private test(root: number): boolean {
    const { outStart, outEnd, outE, dst, parentEdge, lowpt, height, skip, ind, dfs } = this.o;
    const { lowptEdge, stackBottom } = this;
    let top = 0;
    dfs[top++] = root;
    while (top > 0) {
      const v = dfs[--top];
      const e = parentEdge[v];
      const start = outStart[v];
      const count = outEnd[v] - start;
      let descended = false;
      while (ind[v] < count) {
        const ei = outE[start + ind[v]];
        if (!skip[ei]) {
          // The stack's height stands for networkx's "top pair" identity: nothing below it is
          // replaced while ei's subtree is processed.
          stackBottom[ei] = this.sp;
          if (ei === parentEdge[dst[ei]]) {
            dfs[top++] = v;
            dfs[top++] = dst[ei];
            skip[ei] = 1;
            descended = true;
            break;
          }
          lowptEdge[ei] = ei;
          this.push(-1, -1, ei, ei);
        }
        if (lowpt[ei] < height[v]) {
          if (ind[v] === 0) lowptEdge[e] = lowptEdge[ei];
          else if (!this.addConstraints(ei, e)) return false;
        }
        ind[v]++;
      }
      if (!descended && e !== -1) this.removeBackEdges(e);
    }
    return true;
  }

  private addConstraints(ei: number, e: number): boolean {
    const { lowpt, ref, lowptEdge, sLL, sLH, sRL, sRH } = this;
    let pLL = -1;
    let pLH = -1;
    let pRL = -1;
    let pRH = -1;
    // Merge the return edges of ei into P.right.
    do {
      const q = --this.sp;
      if (!(sLL[q] === -1 && sLH[q] === -1)) this.swap(q);
      if (!(sLL[q] === -1 && sLH[q] === -1)) return false;
      const qRL = sRL[q];
      const qRH = sRH[q];
      if (lowpt[qRL] > lowpt[e]) {
        if (pRL === -1 && pRH === -1) pRH = qRH;
        else ref[pRL] = qRH;
        pRL = qRL;
      } else {
        ref[qRL] = lowptEdge[e];
      }
    } while (this.sp !== this.stackBottom[ei]);
    // Merge the conflicting return edges of e_1 … e_(i-1) into P.left.
    while (this.sp > 0) {
      const q = this.sp - 1;
      if (!this.conflicting(sLL[q], sLH[q], ei) && !this.conflicting(sRL[q], sRH[q], ei)) break;
      this.sp--;
      if (this.conflicting(sRL[q], sRH[q], ei)) this.swap(q);
      const qLL = sLL[q];
      const qLH = sLH[q];
      const qRL = sRL[q];
      const qRH = sRH[q];
      if (this.conflicting(qRL, qRH, ei)) return false;
      if (pRL !== -1) ref[pRL] = qRH;
      if (qRL !== -1) pRL = qRL;
      if (pLL === -1 && pLH === -1) pLH = qLH;
      else if (pLL !== -1) ref[pLL] = qLH;
      pLL = qLL;
    }
    if (!(pLL === -1 && pLH === -1 && pRL === -1 && pRH === -1)) this.push(pLL, pLH, pRL, pRH);
    return true;
  }

  private removeBackEdges(e: number): void {
    const { src, dst, height } = this.o;
    const { lowpt, ref, sLL, sLH, sRL, sRH } = this;
    const u = src[e];
    const side = this.side;
    // Drop whole conflict pairs whose lowest return edge ends at u.
    while (this.sp > 0 && this.lowest(this.sp - 1) === height[u]) {
      this.sp--;
      if (sLL[this.sp] !== -1) side[sLL[this.sp]] = -1;
    }
    if (this.sp > 0) {
      const q = this.sp - 1;
      while (sLH[q] !== -1 && dst[sLH[q]] === u) sLH[q] = ref[sLH[q]];
      if (sLH[q] === -1 && sLL[q] !== -1) {
        ref[sLL[q]] = sRL[q];
        side[sLL[q]] = -1;
        sLL[q] = -1;
      }
      while (sRH[q] !== -1 && dst[sRH[q]] === u) sRH[q] = ref[sRH[q]];
      if (sRH[q] === -1 && sRL[q] !== -1) {
        ref[sRL[q]] = sLL[q];
        side[sRL[q]] = -1;
        sRL[q] = -1;
      }
    }
    // The side of e is that of a highest return edge.
    if (lowpt[e] < height[u] && this.sp > 0) {
      const q = this.sp - 1;
      const hl = sLH[q];
      const hr = sRH[q];
      ref[e] = hl !== -1 && (hr === -1 || lowpt[hl] > lowpt[hr]) ? hl : hr;
    }
  }
}
