/**
 * Exact planarity test: the left-right planarity test of de Fraysseix and Rosenstiehl in Brandes'
 * formulation ("The Left-Right Planarity Test", 2009), transcribed from networkx's
 * `check_planarity` (networkx/algorithms/planarity.py, LRPlanarity) without its embedding phase.
 * Linear time apart from the nesting-depth sort (a counting sort here). Typed arrays sized once
 * per tester, so the PMFG's thousand tests per graph allocate nothing. docs/engine.md § PMFG.
 */

/** Reusable workspace for graphs of at most maxNodes nodes and maxEdges edges. */
export class PlanarityTester {
  // Graph in CSR form: adjacency of node v = edge ids adjE[off[v] .. off[v+1]).
  private readonly off: Int32Array;
  private readonly adjE: Int32Array;
  private readonly eu: Int32Array;
  private readonly ev: Int32Array;
  // Per node.
  private readonly height: Int32Array;
  private readonly parentEdge: Int32Array;
  private readonly ind: Int32Array;
  private readonly outStart: Int32Array;
  private readonly outEnd: Int32Array;
  private readonly visited: Int32Array;
  // Per edge, oriented src -> dst by the DFS.
  private readonly src: Int32Array;
  private readonly dst: Int32Array;
  private readonly oriented: Uint8Array;
  private readonly skip: Uint8Array;
  private readonly lowpt: Int32Array;
  private readonly lowpt2: Int32Array;
  private readonly nesting: Int32Array;
  private readonly ref: Int32Array;
  private readonly lowptEdge: Int32Array;
  private readonly stackBottom: Int32Array;
  private readonly outE: Int32Array;
  private readonly bucket: Int32Array;
  private readonly orientedList: Int32Array;
  private readonly sorted: Int32Array;
  // Conflict-pair stack: intervals (low, high) of return edges, -1 = none.
  private readonly sLL: Int32Array;
  private readonly sLH: Int32Array;
  private readonly sRL: Int32Array;
  private readonly sRH: Int32Array;
  private sp = 0;
  private nVisited = 0;
  private nOriented = 0;
  private readonly roots: Int32Array;
  private readonly dfs: Int32Array;

  constructor(
    readonly maxNodes: number,
    readonly maxEdges: number,
  ) {
    const n = Math.max(1, maxNodes);
    const m = Math.max(1, maxEdges);
    this.off = new Int32Array(n + 1);
    this.adjE = new Int32Array(2 * m);
    this.eu = new Int32Array(m);
    this.ev = new Int32Array(m);
    this.height = new Int32Array(n);
    this.parentEdge = new Int32Array(n);
    this.ind = new Int32Array(n);
    this.outStart = new Int32Array(n);
    this.outEnd = new Int32Array(n);
    this.visited = new Int32Array(n);
    this.src = new Int32Array(m);
    this.dst = new Int32Array(m);
    this.oriented = new Uint8Array(m);
    this.skip = new Uint8Array(m);
    this.lowpt = new Int32Array(m);
    this.lowpt2 = new Int32Array(m);
    this.nesting = new Int32Array(m);
    this.ref = new Int32Array(m);
    this.lowptEdge = new Int32Array(m);
    this.stackBottom = new Int32Array(m);
    this.outE = new Int32Array(m);
    this.bucket = new Int32Array(2 * n + 3);
    this.orientedList = new Int32Array(m);
    this.sorted = new Int32Array(m);
    this.sLL = new Int32Array(m + 1);
    this.sLH = new Int32Array(m + 1);
    this.sRL = new Int32Array(m + 1);
    this.sRH = new Int32Array(m + 1);
    this.dfs = new Int32Array(2 * n + 2);
    this.roots = new Int32Array(n);
  }

  /**
   * Is the simple graph on nodes 0..n-1 with edges (eu[e], ev[e]), e < m, planar? With `root` ≥ 0
   * only root's connected component is tested (the other components must be known planar).
   */
  isPlanar(n: number, m: number, eu: ArrayLike<number>, ev: ArrayLike<number>, root = -1): boolean {
    if (n > this.maxNodes || m > this.maxEdges)
      throw new RangeError(`planarity workspace holds ${this.maxNodes} nodes, ${this.maxEdges} edges`);
    if (root < 0 && n > 2 && m > 3 * n - 6) return false;
    const off = this.off;
    off.fill(0, 0, n + 1);
    for (let e = 0; e < m; e++) {
      if (eu[e] === ev[e]) throw new RangeError("self-loop");
      this.eu[e] = eu[e];
      this.ev[e] = ev[e];
      off[eu[e] + 1]++;
      off[ev[e] + 1]++;
    }
    for (let v = 0; v < n; v++) off[v + 1] += off[v];
    const fill = this.ind;
    for (let v = 0; v < n; v++) fill[v] = off[v];
    for (let e = 0; e < m; e++) {
      this.adjE[fill[this.eu[e]]++] = e;
      this.adjE[fill[this.ev[e]]++] = e;
    }
    this.height.fill(-1, 0, n);
    this.parentEdge.fill(-1, 0, n);
    this.ind.fill(0, 0, n);
    this.oriented.fill(0, 0, m);
    this.skip.fill(0, 0, m);
    this.ref.fill(-1, 0, m);
    this.lowptEdge.fill(-1, 0, m);
    this.nVisited = 0;
    this.nOriented = 0;
    let nRoots = 0;
    for (let r = Math.max(root, 0); r < (root < 0 ? n : root + 1); r++) {
      if (this.height[r] !== -1) continue;
      this.height[r] = 0;
      this.roots[nRoots++] = r;
      this.orient(r);
    }
    const nVisited = this.nVisited;
    const nOriented = this.nOriented;
    // Euler's bound on what was oriented (networkx applies it to the whole graph first).
    if (root >= 0 && nVisited > 2 && nOriented > 3 * nVisited - 6) return false;
    this.sortByNesting(nVisited, nOriented);
    this.ind.fill(0, 0, n);
    this.skip.fill(0, 0, m);
    this.sp = 0;
    for (let k = 0; k < nRoots; k++) if (!this.test(this.roots[k])) return false;
    return true;
  }

  /** networkx's dfs_orientation: orient by DFS, lowpoints and nesting depths. */
  private orient(root: number): void {
    let nVisited = this.nVisited;
    let nOriented = this.nOriented;
    const { off, adjE, eu, ev, height, parentEdge, ind, src, dst, oriented, skip, lowpt, lowpt2, nesting, dfs } = this;
    this.visited[nVisited++] = root;
    let top = 0;
    dfs[top++] = root;
    while (top > 0) {
      const v = dfs[--top];
      const e = parentEdge[v];
      const end = off[v + 1] - off[v];
      while (ind[v] < end) {
        const vw = adjE[off[v] + ind[v]];
        const w = eu[vw] === v ? ev[vw] : eu[vw];
        if (!skip[vw]) {
          if (oriented[vw]) {
            ind[v]++;
            continue;
          }
          oriented[vw] = 1;
          src[vw] = v;
          dst[vw] = w;
          this.orientedList[nOriented++] = vw;
          lowpt[vw] = height[v];
          lowpt2[vw] = height[v];
          if (height[w] === -1) {
            // Tree edge: descend into w, come back to v afterwards.
            parentEdge[w] = vw;
            height[w] = height[v] + 1;
            this.visited[nVisited++] = w;
            dfs[top++] = v;
            dfs[top++] = w;
            skip[vw] = 1;
            break;
          }
          lowpt[vw] = height[w];
        }
        nesting[vw] = 2 * lowpt[vw] + (lowpt2[vw] < height[v] ? 1 : 0);
        if (e !== -1) {
          if (lowpt[vw] < lowpt[e]) {
            lowpt2[e] = Math.min(lowpt[e], lowpt2[vw]);
            lowpt[e] = lowpt[vw];
          } else if (lowpt[vw] > lowpt[e]) {
            lowpt2[e] = Math.min(lowpt2[e], lowpt[vw]);
          } else {
            lowpt2[e] = Math.min(lowpt2[e], lowpt2[vw]);
          }
        }
        ind[v]++;
      }
    }
    this.nVisited = nVisited;
    this.nOriented = nOriented;
  }

  /** Out-edges of each visited node ordered by nesting depth (counting sort; depths are < 2n + 2). */
  private sortByNesting(nVisited: number, nOriented: number): void {
    const { bucket, nesting, orientedList, outStart, outEnd, outE, src, visited } = this;
    let maxKey = 0;
    for (let q = 0; q < nOriented; q++) maxKey = Math.max(maxKey, nesting[orientedList[q]]);
    bucket.fill(0, 0, maxKey + 2);
    for (let q = 0; q < nOriented; q++) bucket[nesting[orientedList[q]] + 1]++;
    for (let k = 0; k < maxKey; k++) bucket[k + 1] += bucket[k];
    const sorted = this.sorted;
    for (let q = 0; q < nOriented; q++) {
      const e = orientedList[q];
      sorted[bucket[nesting[e]]++] = e;
    }
    // Each visited node's out-edges get a contiguous slot, filled in nesting order.
    for (let q = 0; q < nVisited; q++) outEnd[visited[q]] = 0;
    for (let q = 0; q < nOriented; q++) outEnd[src[orientedList[q]]]++;
    let acc = 0;
    for (let q = 0; q < nVisited; q++) {
      const v = visited[q];
      outStart[v] = acc;
      acc += outEnd[v];
      outEnd[v] = outStart[v];
    }
    for (let q = 0; q < nOriented; q++) {
      const e = sorted[q];
      outE[outEnd[src[e]]++] = e;
    }
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

  /** networkx's dfs_testing: false as soon as no left-right partition exists. */
  private test(root: number): boolean {
    const { outStart, outEnd, outE, dst, parentEdge, lowpt, height, lowptEdge, stackBottom, skip, ind, dfs } = this;
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
      let qLL = sLL[q];
      let qLH = sLH[q];
      let qRL = sRL[q];
      let qRH = sRH[q];
      if (!(qLL === -1 && qLH === -1)) {
        const tl = qLL;
        const th = qLH;
        qLL = qRL;
        qLH = qRH;
        qRL = tl;
        qRH = th;
      }
      if (!(qLL === -1 && qLH === -1)) return false;
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
      let qLL = sLL[q];
      let qLH = sLH[q];
      let qRL = sRL[q];
      let qRH = sRH[q];
      if (this.conflicting(qRL, qRH, ei)) {
        const tl = qLL;
        const th = qLH;
        qLL = qRL;
        qLH = qRH;
        qRL = tl;
        qRH = th;
      }
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
    const { src, dst, lowpt, height, ref, sLL, sLH, sRL, sRH } = this;
    const u = src[e];
    // Drop whole conflict pairs whose lowest return edge ends at u.
    while (this.sp > 0 && this.lowest(this.sp - 1) === height[u]) this.sp--;
    if (this.sp > 0) {
      const q = this.sp - 1;
      while (sLH[q] !== -1 && dst[sLH[q]] === u) sLH[q] = ref[sLH[q]];
      if (sLH[q] === -1 && sLL[q] !== -1) {
        ref[sLL[q]] = sRL[q];
        sLL[q] = -1;
      }
      while (sRH[q] !== -1 && dst[sRH[q]] === u) sRH[q] = ref[sRH[q]];
      if (sRH[q] === -1 && sRL[q] !== -1) {
        ref[sRL[q]] = sLL[q];
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

/** Convenience: is the graph with edge pairs (i, j) flattened in `pairs` planar? */
export function isPlanar(n: number, pairs: ArrayLike<number>): boolean {
  const m = pairs.length / 2;
  const eu = new Int32Array(m);
  const ev = new Int32Array(m);
  for (let e = 0; e < m; e++) {
    eu[e] = pairs[2 * e];
    ev[e] = pairs[2 * e + 1];
  }
  return new PlanarityTester(n, m).isPlanar(n, m, eu, ev);
}
