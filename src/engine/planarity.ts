/**
 * Exact planarity test: the left-right planarity test of de Fraysseix and Rosenstiehl in Brandes'
 * formulation ("The Left-Right Planarity Test", 2009), transcribed from networkx's
 * `check_planarity` (networkx/algorithms/planarity.py, LRPlanarity) without its embedding phase.
 * Linear time apart from the nesting-depth sort (a counting sort here). Typed arrays sized once
 * per tester, so the PMFG's thousand tests per graph allocate nothing. docs/engine.md § PMFG.
 */

/** Reusable workspace for graphs of at most maxNodes nodes and maxEdges edges. */
export class PlanarityTester {
  // Graph in CSR form: adjacency of node v = edge ids adjE[off[v] .. off[v+1]), the other ends in adjW.
  private readonly off: Int32Array;
  private readonly adjE: Int32Array;
  private readonly adjW: Int32Array;
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
  /** Side of an edge relative to its ref (1 or −1; networkx's `side`), for the embedding phase. */
  private readonly side: Int8Array;
  private readonly lowptEdge: Int32Array;
  private readonly stackBottom: Int32Array;
  private readonly outE: Int32Array;
  private readonly bucket: Int32Array;
  private readonly leftRef: Int32Array;
  private readonly rightRef: Int32Array;
  private readonly orientedList: Int32Array;
  private readonly sorted: Int32Array;
  // Conflict-pair stack: intervals (low, high) of return edges, -1 = none.
  private readonly sLL: Int32Array;
  private readonly sLH: Int32Array;
  private readonly sRL: Int32Array;
  private readonly sRH: Int32Array;
  private sp = 0;
  private nRoots = 0;
  private embeddable = false;
  private nVisited = 0;
  private nOriented = 0;
  private readonly roots: Int32Array;
  private readonly dfs: Int32Array;
  /** DFS preorder index of each oriented node, and the index past its subtree (ancestor tests). */
  private readonly pre: Int32Array;
  private readonly subEnd: Int32Array;
  /** The orientation is the kept graph's (edges 0 … baseM − 1 of isPlanarWith's caller), −1: none. */
  private baseM = -1;
  /** Lowpoints and nesting of the tree edges a candidate back edge changed, to put back. */
  private readonly saved: Int32Array;
  private nSaved = 0;
  private readonly nestingCopy: Int32Array;

  constructor(
    readonly maxNodes: number,
    readonly maxEdges: number,
  ) {
    const n = Math.max(1, maxNodes);
    const m = Math.max(1, maxEdges);
    this.off = new Int32Array(n + 1);
    this.adjE = new Int32Array(2 * m);
    this.adjW = new Int32Array(2 * m);
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
    this.side = new Int8Array(m);
    this.lowptEdge = new Int32Array(m);
    this.stackBottom = new Int32Array(m);
    this.outE = new Int32Array(m);
    this.bucket = new Int32Array(4 * n + 6);
    this.leftRef = new Int32Array(n);
    this.rightRef = new Int32Array(n);
    this.orientedList = new Int32Array(m);
    this.sorted = new Int32Array(m);
    this.sLL = new Int32Array(m + 1);
    this.sLH = new Int32Array(m + 1);
    this.sRL = new Int32Array(m + 1);
    this.sRH = new Int32Array(m + 1);
    this.dfs = new Int32Array(2 * n + 2);
    this.roots = new Int32Array(n);
    this.pre = new Int32Array(n);
    this.subEnd = new Int32Array(n);
    this.saved = new Int32Array(4 * n);
    this.nestingCopy = new Int32Array(m);
  }

  /**
   * Is the simple graph on nodes 0..n-1 with edges (eu[e], ev[e]), e < m, planar? With `root` ≥ 0
   * only root's connected component is tested (the other components must be known planar).
   */
  isPlanar(n: number, m: number, eu: ArrayLike<number>, ev: ArrayLike<number>, root = -1): boolean {
    if (n > this.maxNodes || m > this.maxEdges)
      throw new RangeError(`planarity workspace holds ${this.maxNodes} nodes, ${this.maxEdges} edges`);
    this.embeddable = false;
    this.baseM = -1;
    if (root < 0 && n > 2 && m > 3 * n - 6) return false;
    const nRoots = this.orientAll(n, m, eu, ev, root);
    const planar = this.testOriented(n, m, nRoots, root >= 0);
    // A planar graph's orientation is the kept graph's once the caller keeps the edge (isPlanarWith).
    if (planar && root >= 0) this.baseM = m;
    return planar;
  }

  /**
   * isPlanar(n, m, eu, ev, root) for a graph that is the kept graph of the previous calls (edges
   * 0 … m − 2, reported through isPlanarWith and kept()) plus the candidate edge m − 1. When the
   * candidate joins a node to its ancestor in the kept graph's DFS tree, that orientation is reused:
   * the candidate becomes a back edge and only the lowpoints along the tree path change (LR
   * planarity holds for any DFS tree); else the whole test. Same answer either way.
   */
  isPlanarWith(n: number, m: number, eu: ArrayLike<number>, ev: ArrayLike<number>, root: number): boolean {
    const u = eu[m - 1];
    const v = ev[m - 1];
    const { height } = this;
    if (this.baseM !== m - 1 || height[u] < 0 || height[v] < 0) {
      if (n > this.maxNodes || m > this.maxEdges)
        throw new RangeError(`planarity workspace holds ${this.maxNodes} nodes, ${this.maxEdges} edges`);
      this.orientAll(n, m - 1, eu, ev, root);
      this.baseM = m - 1;
    }
    this.embeddable = false;
    let a: number;
    let d: number;
    // (u and v in two components of the kept graph: the whole test.)
    if (height[u] < 0 || height[v] < 0) return this.isPlanar(n, m, eu, ev, root);
    if (this.isAncestor(u, v)) {
      a = u;
      d = v;
    } else if (this.isAncestor(v, u)) {
      a = v;
      d = u;
    } else return this.isPlanar(n, m, eu, ev, root);
    this.nSaved = 0;
    this.addBackEdge(m - 1, d, a, true);
    if (this.testOriented(n, m, 1, true)) {
      this.baseM = m;
      return true;
    }
    // Put the kept graph's orientation back.
    const { saved, lowpt, lowpt2, nesting } = this;
    for (let k = 0; k < this.nSaved; k++) {
      const e = saved[4 * k];
      lowpt[e] = saved[4 * k + 1];
      lowpt2[e] = saved[4 * k + 2];
      nesting[e] = saved[4 * k + 3];
    }
    this.nOriented--;
    return false;
  }

  /**
   * The caller kept edge e = (u, v) without a test: the orientation follows when e is a back edge
   * of its DFS tree or lies outside the oriented component, else it is dropped.
   */
  kept(e: number, u: number, v: number): void {
    if (this.baseM !== e) {
      this.baseM = -1;
      return;
    }
    const { height } = this;
    if (height[u] < 0 && height[v] < 0) this.baseM = e + 1;
    else if (height[u] < 0 || height[v] < 0) this.baseM = -1;
    else if (this.isAncestor(u, v)) {
      this.addBackEdge(e, v, u, false);
      this.baseM = e + 1;
    } else if (this.isAncestor(v, u)) {
      this.addBackEdge(e, u, v, false);
      this.baseM = e + 1;
    } else this.baseM = -1;
  }

  /** No kept graph yet (a new graph starts). */
  forget(): void {
    this.baseM = -1;
  }

  private isAncestor(a: number, d: number): boolean {
    return this.pre[a] <= this.pre[d] && this.pre[d] < this.subEnd[a] && a !== d;
  }

  /**
   * Orients edge e from d to its ancestor a as a back edge and merges its return point into the
   * lowpoints of the tree edges above d (the merge networkx's orientation does, in any order);
   * `save`: remember the tree edges' values for isPlanarWith to put back.
   */
  private addBackEdge(e: number, d: number, a: number, save: boolean): void {
    const { height, parentEdge, src, dst, lowpt, lowpt2, nesting, saved } = this;
    this.orientedList[this.nOriented++] = e;
    src[e] = d;
    dst[e] = a;
    lowpt[e] = height[a];
    lowpt2[e] = height[d];
    nesting[e] = 2 * height[a];
    let l = lowpt[e];
    let l2 = lowpt2[e];
    for (let x = d; parentEdge[x] !== -1; ) {
      const p = parentEdge[x];
      let nl = lowpt[p];
      let nl2 = lowpt2[p];
      if (l < nl) {
        nl2 = Math.min(nl, l2);
        nl = l;
      } else if (l > nl) nl2 = Math.min(nl2, l);
      else nl2 = Math.min(nl2, l2);
      if (nl === lowpt[p] && nl2 === lowpt2[p]) break;
      if (save) {
        const k = this.nSaved++;
        saved[4 * k] = p;
        saved[4 * k + 1] = lowpt[p];
        saved[4 * k + 2] = lowpt2[p];
        saved[4 * k + 3] = nesting[p];
      }
      lowpt[p] = nl;
      lowpt2[p] = nl2;
      x = src[p];
      nesting[p] = 2 * nl + (nl2 < height[x] ? 1 : 0);
      l = nl;
      l2 = nl2;
    }
  }

  /** The CSR adjacency of edges 0 … m − 1 and their DFS orientation (root's component, or all); the number of roots. */
  private orientAll(n: number, m: number, eu: ArrayLike<number>, ev: ArrayLike<number>, root: number): number {
    const off = this.off;
    off.fill(0, 0, n + 1);
    for (let e = 0; e < m; e++) {
      if (eu[e] === ev[e]) throw new RangeError("self-loop");
      off[eu[e] + 1]++;
      off[ev[e] + 1]++;
    }
    for (let v = 0; v < n; v++) off[v + 1] += off[v];
    const { adjE, adjW } = this;
    const fill = this.ind;
    for (let v = 0; v < n; v++) fill[v] = off[v];
    for (let e = 0; e < m; e++) {
      const a = eu[e];
      const b = ev[e];
      let k = fill[a]++;
      adjE[k] = e;
      adjW[k] = b;
      k = fill[b]++;
      adjE[k] = e;
      adjW[k] = a;
    }
    this.height.fill(-1, 0, n);
    this.parentEdge.fill(-1, 0, n);
    this.ind.fill(0, 0, n);
    this.oriented.fill(0, 0, m);
    this.skip.fill(0, 0, m);
    this.nVisited = 0;
    this.nOriented = 0;
    let nRoots = 0;
    for (let r = Math.max(root, 0); r < (root < 0 ? n : root + 1); r++) {
      if (this.height[r] !== -1) continue;
      this.height[r] = 0;
      this.roots[nRoots++] = r;
      this.orient(r);
    }
    return nRoots;
  }

  /** The left-right test on the oriented edges (one root's component when `one`); m bounds the edge ids. */
  private testOriented(n: number, m: number, nRoots: number, one: boolean): boolean {
    const nVisited = this.nVisited;
    const nOriented = this.nOriented;
    // Euler's bound on what was oriented (networkx applies it to the whole graph first).
    if (one && nVisited > 2 && nOriented > 3 * nVisited - 6) return false;
    this.sortByNesting(nVisited, nOriented);
    this.ind.fill(0, 0, n);
    this.skip.fill(0, 0, m);
    this.ref.fill(-1, 0, m);
    this.side.fill(1, 0, m);
    this.lowptEdge.fill(-1, 0, m);
    this.sp = 0;
    for (let k = 0; k < nRoots; k++) if (!this.test(this.roots[k])) return false;
    this.nRoots = nRoots;
    this.embeddable = true;
    return true;
  }

  /**
   * networkx's embedding phase, after isPlanar returned true (and before the next test): the
   * tested nodes' rotation system, for each such node v and neighbour w at v·stride + w: `cw` the
   * next neighbour clockwise, `ccw` counter-clockwise; `first[v]` one neighbour (−1: none). Other
   * nodes' entries are left as they are. Nesting depths get the sides' signs (sign() resolves the
   * ref chains), out-edges are reordered by them, and a DFS adds each back edge beside its ref.
   */
  embed(cw: Int32Array, ccw: Int32Array, first: Int32Array, stride: number): void {
    if (!this.embeddable) throw new Error("embed() needs isPlanar() to have just returned true");
    this.embeddable = false;
    const { orientedList, nesting, ref, side, dst, visited, outStart, outEnd, outE, parentEdge, ind, dfs } = this;
    const nOriented = this.nOriented;
    const nVisited = this.nVisited;
    const chain = this.sorted;
    // The nesting depths get signs below; the kept graph's orientation needs them back (isPlanarWith).
    const copy = this.nestingCopy;
    for (let q = 0; q < nOriented; q++) copy[q] = nesting[orientedList[q]];
    for (let q = 0; q < nOriented; q++) {
      // sign(e): side[e] *= sign(ref[e]) along the chain of refs, deepest first.
      let len = 0;
      for (let e = orientedList[q]; ref[e] !== -1; e = ref[e]) {
        if (len === nOriented) throw new Error("planarity: cyclic ref chain");
        chain[len++] = e;
      }
      for (let k = len - 1; k >= 0; k--) {
        const e = chain[k];
        side[e] *= side[ref[e]];
        ref[e] = -1;
      }
    }
    // Out-edges by signed nesting depth (counting sort, stable in orientation order as networkx's sorted()).
    const shift = this.maxNesting(nOriented);
    for (let q = 0; q < nOriented; q++) nesting[orientedList[q]] = side[orientedList[q]] * nesting[orientedList[q]] + shift;
    this.sortByNesting(nVisited, nOriented);
    for (let q = 0; q < nVisited; q++) first[visited[q]] = -1;
    const { leftRef, rightRef } = this;
    for (let q = 0; q < nVisited; q++) {
      const v = visited[q];
      let prev = -1;
      for (let k = outStart[v]; k < outEnd[v]; k++) {
        const w = dst[outE[k]];
        addCw(cw, ccw, first, stride, v, w, prev);
        prev = w;
      }
    }
    ind.fill(0, 0, this.maxNodes);
    for (let r = 0; r < this.nRoots; r++) {
      let top = 0;
      dfs[top++] = this.roots[r];
      while (top > 0) {
        const v = dfs[--top];
        while (outStart[v] + ind[v] < outEnd[v]) {
          const ei = outE[outStart[v] + ind[v]];
          ind[v]++;
          const w = dst[ei];
          if (ei === parentEdge[w]) {
            // Tree edge: v first in w's list, then w's subtree.
            addCcw(cw, ccw, first, stride, w, v, first[w]);
            leftRef[v] = w;
            rightRef[v] = w;
            dfs[top++] = v;
            dfs[top++] = w;
            break;
          }
          // Back edge v -> w: placed at w beside w's right or left reference.
          if (side[ei] === 1) addCw(cw, ccw, first, stride, w, v, rightRef[w]);
          else {
            addCcw(cw, ccw, first, stride, w, v, leftRef[w]);
            leftRef[w] = v;
          }
        }
      }
    }
    for (let q = 0; q < nOriented; q++) nesting[orientedList[q]] = copy[q];
  }

  private maxNesting(nOriented: number): number {
    let max = 0;
    for (let q = 0; q < nOriented; q++) max = Math.max(max, Math.abs(this.nesting[this.orientedList[q]]));
    return max;
  }

  /** networkx's dfs_orientation: orient by DFS, lowpoints and nesting depths. */
  private orient(root: number): void {
    let nVisited = this.nVisited;
    let nOriented = this.nOriented;
    const { off, adjE, adjW, height, parentEdge, ind, src, dst, oriented, skip, lowpt, lowpt2, nesting, dfs } = this;
    const { pre, subEnd } = this;
    pre[root] = nVisited;
    this.visited[nVisited++] = root;
    let top = 0;
    dfs[top++] = root;
    while (top > 0) {
      const v = dfs[--top];
      const e = parentEdge[v];
      const base = off[v];
      const end = off[v + 1] - base;
      while (ind[v] < end) {
        const vw = adjE[base + ind[v]];
        const w = adjW[base + ind[v]];
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
            pre[w] = nVisited;
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
      if (ind[v] >= end) subEnd[v] = nVisited;
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

/** networkx's PlanarEmbedding.add_half_edge_cw: w after (clockwise of) `ref` around v; ref −1 = v's first neighbour. */
export function addCw(cw: Int32Array, ccw: Int32Array, first: Int32Array, stride: number, v: number, w: number, ref: number): void {
  const o = v * stride;
  if (ref === -1) {
    cw[o + w] = w;
    ccw[o + w] = w;
    first[v] = w;
    return;
  }
  const next = cw[o + ref];
  cw[o + ref] = w;
  cw[o + w] = next;
  ccw[o + next] = w;
  ccw[o + w] = ref;
}

/** networkx's add_half_edge_ccw: w before (counter-clockwise of) `ref` around v, and first if ref was. */
export function addCcw(cw: Int32Array, ccw: Int32Array, first: Int32Array, stride: number, v: number, w: number, ref: number): void {
  if (ref === -1) {
    addCw(cw, ccw, first, stride, v, w, -1);
    return;
  }
  addCw(cw, ccw, first, stride, v, w, ccw[v * stride + ref]);
  if (first[v] === ref) first[v] = w;
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

/**
 * A plane embedding of a growing simple graph on nodes 0 … n−1 as a rotation system (`cw`, `ccw`
 * at v·n + w, `first[v]`), for the PMFG's exact shortcut: when u and v lie on one face, G + uv is
 * planar and the edge goes into that face (splitting it), no test needed. Faces are traced by
 * (a, b) -> (b, ccw(b, a)). After a test that re-embeds a component (PlanarityTester.embed),
 * `check` verifies it — each rotation a cyclic order of exactly the node's neighbours, and
 * V − E + F = 2 (genus 0) — so a wrong embedding could only cost tests, never a result.
 */
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
    if (!this.valid || this.first[u] === -1 || this.first[v] === -1 || !this.sharedCorner(u, v)) return false;
    const { cw, ccw, first, n } = this;
    addCw(cw, ccw, first, n, u, v, this.cornerU);
    addCw(cw, ccw, first, n, v, u, this.cornerV);
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
    const { cw, ccw, first, n, moved } = this;
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
      const z = moved[2 * k];
      addCw(cw, ccw, first, n, z, v, moved[2 * k + 1]);
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
    const faceMark = ++this.epoch;
    let z = first[v];
    for (let k = 0; k < deg[v]; k++) {
      if (seen[v * n + z] === faceMark) return (this.valid = false);
      let a = v;
      let b = z;
      let steps = 0;
      do {
        seen[a * n + b] = faceMark;
        const c = ccw[b * n + a];
        a = b;
        b = c;
        if (++steps > 2 * n * n) return (this.valid = false);
        if (a === v && b !== z) return (this.valid = false); // the face passes v again
      } while (a !== v || b !== z);
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

  /** Corners (node, outgoing neighbour) of addByMoving's face in its order: `corners` pairs in `moved`. */
  private readonly moved = new Int32Array(6);
  private corners = 0;

  /** Whether a face around u also holds x (and y ≥ 0); if so its corners at u, x, y in face order. */
  private faceHolding(u: number, x: number, y: number): boolean {
    const { cw, ccw, first, n, seen, moved } = this;
    if (first[x] === -1 || (y !== -1 && first[y] === -1)) return false;
    const epoch = ++this.epoch;
    const start = first[u];
    let w = start;
    do {
      if (seen[u * n + w] !== epoch) {
        let a = u;
        let b = w;
        let k = 1;
        let gotX = false;
        let gotY = y === -1;
        moved[0] = u;
        moved[1] = w;
        do {
          seen[a * n + b] = epoch;
          const c = ccw[b * n + a];
          if ((b === x && !gotX) || (b === y && !gotY)) {
            if (b === x) gotX = true;
            else gotY = true;
            moved[2 * k] = b;
            moved[2 * k + 1] = c;
            k++;
            if (gotX && gotY) {
              this.corners = k;
              return true;
            }
          }
          a = b;
          b = c;
        } while (a !== u || b !== w);
      }
      w = cw[u * n + w];
    } while (w !== start);
    return false;
  }

  /** Corners found by sharedCorner: at u clockwise before `cornerU`, at v before `cornerV`. */
  private cornerU = -1;
  private cornerV = -1;

  /**
   * Whether u and v lie on one face, tracing the faces around u; if so the corners (u's before
   * cornerU clockwise, v's before cornerV) where an edge (u, v) would go.
   */
  private sharedCorner(u: number, v: number): boolean {
    const { cw, ccw, first, n, seen } = this;
    const epoch = ++this.epoch;
    const start = first[u];
    let w = start;
    do {
      if (seen[u * n + w] !== epoch) {
        // The face to the left of (u, w): its corner at u lies between cw(u, w) and w.
        let a = u;
        let b = w;
        do {
          seen[a * n + b] = epoch;
          if (b === v) {
            // (a, v) enters v at the corner between a and ccw(v, a).
            this.cornerU = w;
            this.cornerV = ccw[v * n + a];
            return true;
          }
          const c = ccw[b * n + a];
          a = b;
          b = c;
        } while (a !== u || b !== w);
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
          let a = x;
          let b = w;
          let steps = 0;
          do {
            seen[a * n + b] = faceEpoch;
            const c = ccw[b * n + a];
            a = b;
            b = c;
            if (++steps > edges2) return (this.valid = false);
          } while (a !== x || b !== w);
        }
        w = cw[x * n + w];
      }
    }
    if (tail - edges2 / 2 + faces !== 2) this.valid = false;
    return this.valid;
  }
}
