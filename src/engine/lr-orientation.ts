/**
 * The left-right test's first phase, networkx's dfs_orientation (planarity.py, LRPlanarity): the
 * graph in CSR form, oriented by a DFS, with each oriented edge's lowpoints and nesting depth, and
 * each node's out-edges ordered by that depth for the constraint phase (lr-constraints.ts). Also
 * what PlanarityTester.isPlanarWith needs to reuse an orientation: ancestor tests on the DFS tree
 * and adding (then dropping) one back edge. Typed arrays sized once, public for the later phases.
 */
export class LrOrientation {
  // Graph in CSR form: adjacency of node v = edge ids adjE[off[v] .. off[v+1]), the other ends in adjW.
  readonly off: Int32Array;
  readonly adjE: Int32Array;
  readonly adjW: Int32Array;
  // Per node.
  readonly height: Int32Array;
  readonly parentEdge: Int32Array;
  /** Per node: the next adjacency (or out-edge) index of a DFS; the phases reset it before theirs. */
  readonly ind: Int32Array;
  readonly outStart: Int32Array;
  readonly outEnd: Int32Array;
  readonly visited: Int32Array;
  // Per edge, oriented src -> dst by the DFS.
  readonly src: Int32Array;
  readonly dst: Int32Array;
  readonly oriented: Uint8Array;
  /** Per edge: already passed by a DFS (the phases reset it before theirs). */
  readonly skip: Uint8Array;
  readonly lowpt: Int32Array;
  readonly lowpt2: Int32Array;
  readonly nesting: Int32Array;
  readonly bucket: Int32Array;
  readonly orientedList: Int32Array;
  /** The oriented edges by nesting depth (sortByNesting), then scratch for the embedding phase. */
  readonly sorted: Int32Array;
  readonly outE: Int32Array;
  nVisited = 0;
  nOriented = 0;
  readonly roots: Int32Array;
  /** DFS stack, shared by the phases. */
  readonly dfs: Int32Array;
  /** DFS preorder index of each oriented node, and the index past its subtree (ancestor tests). */
  private readonly pre: Int32Array;
  private readonly subEnd: Int32Array;
  /** Lowpoints and nesting of the tree edges a candidate back edge changed, to put back. */
  private readonly saved: Int32Array;
  private nSaved = 0;

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
    this.outE = new Int32Array(m);
    this.bucket = new Int32Array(4 * n + 6);
    this.orientedList = new Int32Array(m);
    this.sorted = new Int32Array(m);
    this.dfs = new Int32Array(2 * n + 2);
    this.roots = new Int32Array(n);
    this.pre = new Int32Array(n);
    this.subEnd = new Int32Array(n);
    this.saved = new Int32Array(4 * n);
  }

  isAncestor(a: number, d: number): boolean {
    return this.pre[a] <= this.pre[d] && this.pre[d] < this.subEnd[a] && a !== d;
  }

  /**
   * Orients edge e from d to its ancestor a as a back edge and merges its return point into the
   * lowpoints of the tree edges above d (the merge networkx's orientation does, in any order);
   * `save`: remember the tree edges' values for dropBackEdge to put back.
   */
  addBackEdge(e: number, d: number, a: number, save: boolean): void {
    const { height, parentEdge, src, dst, lowpt, lowpt2, nesting, saved } = this;
    if (save) this.nSaved = 0;
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

  /** Undoes the last addBackEdge(…, save = true): the orientation is the one before it. */
  dropBackEdge(): void {
    const { saved, lowpt, lowpt2, nesting } = this;
    for (let k = 0; k < this.nSaved; k++) {
      const e = saved[4 * k];
      lowpt[e] = saved[4 * k + 1];
      lowpt2[e] = saved[4 * k + 2];
      nesting[e] = saved[4 * k + 3];
    }
    this.nOriented--;
  }

  /** The CSR adjacency of edges 0 … m − 1 and their DFS orientation (root's component, or all); the number of roots. */
  orientAll(n: number, m: number, eu: ArrayLike<number>, ev: ArrayLike<number>, root: number): number {
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
  sortByNesting(nVisited: number, nOriented: number): void {
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
}
