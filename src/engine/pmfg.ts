/**
 * Planar Maximally Filtered Graph (Tumminello, Aste, Di Matteo, Mantegna 2005): candidate edges
 * by decreasing |ρ|, each kept if the graph stays planar, until 3(n−2) edges. The order, its
 * tie-break and the n < 5 cases: docs/engine.md § PMFG.
 */
import { PlanarityTester } from "./planarity.ts";

export interface Pmfg {
  /** Edge pairs (i, j), i < j, in insertion order (the same form as tmfg's). */
  pairs: number[];
}

/**
 * n*n row-major correlation matrix -> PMFG. Candidates in the strict order (d, i, j) with
 * d = √(2(1 − |ρ|)), graph.ts's edgeLength: decreasing |ρ|, the ties as mst breaks them, so the
 * PMFG contains exactly the mst graph's edges.
 */
export function pmfg(corr: Float64Array, n: number): Pmfg {
  const pairs: number[] = [];
  if (n <= 4) {
    // 3(n−2) ≥ n(n−1)/2 here: every edge fits (n = 2 keeps its one edge, as tmfg does).
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) pairs.push(i, j);
    return { pairs };
  }
  const target = 3 * (n - 2);
  const cand = candidateOrder(corr, n);
  const eu = new Int32Array(target);
  const ev = new Int32Array(target);
  const tester = new PlanarityTester(n, target);
  const cores = new TriangulatedCores(n);
  // Union-find: an edge between two components keeps any planar graph planar, so it needs no test.
  const parent = Int32Array.from({ length: n }, (_, v) => v);
  const find = (v: number) => {
    while (parent[v] !== v) v = parent[v] = parent[parent[v]];
    return v;
  };
  let m = 0;
  for (let q = 0; q < cand.length && m < target; q++) {
    const i = Math.floor(cand[q] / n);
    const j = cand[q] - i * n;
    if (cores.sameCore(i, j)) continue;
    const ri = find(i);
    const rj = find(j);
    eu[m] = i;
    ev[m] = j;
    if (ri !== rj) parent[ri] = rj;
    else if (!tester.isPlanar(n, m + 1, eu, ev, i)) continue;
    m++;
    pairs.push(i, j);
    cores.addEdge(i, j);
  }
  return { pairs };
}

/**
 * Disjoint node sets S whose induced subgraph has 3|S| − 6 edges, i.e. is a maximal planar
 * graph: an edge between two non-adjacent nodes of one S makes the graph non-planar, so such
 * candidates are rejected without a planarity test (most rejections, late in the PMFG). Sets are
 * found from K4 seeds, grown by nodes with 3 neighbours in a set (3|S| − 6 + 3 = 3(|S| + 1) − 6)
 * and merged when two sets have 6 edges between them. Missing a set only costs a test.
 */
class TriangulatedCores {
  private readonly adj: Uint8Array;
  private readonly nbr: Int32Array;
  private readonly deg: Int32Array;
  /** Set id of each node (the id of a node in it), -1 = in none. */
  private readonly core: Int32Array;
  private readonly work: number[] = [];

  constructor(private readonly n: number) {
    this.adj = new Uint8Array(n * n);
    this.nbr = new Int32Array(n * n);
    this.deg = new Int32Array(n);
    this.core = new Int32Array(n).fill(-1);
  }

  sameCore(i: number, j: number): boolean {
    return this.core[i] !== -1 && this.core[i] === this.core[j];
  }

  addEdge(u: number, v: number): void {
    const { n, adj, nbr, deg, core } = this;
    adj[u * n + v] = adj[v * n + u] = 1;
    nbr[u * n + deg[u]++] = v;
    nbr[v * n + deg[v]++] = u;
    if (core[u] === -1 && core[v] === -1) this.seed(u, v);
    else if (core[u] === -1) this.tryJoin(u);
    else if (core[v] === -1) this.tryJoin(v);
    else this.tryMerge(core[u], core[v]);
    this.settle();
  }

  /** A K4 on u, v and two common neighbours outside every set starts a new set. */
  private seed(u: number, v: number): void {
    const { n, adj, nbr, deg, core } = this;
    for (let a = 0; a < deg[u]; a++) {
      const w = nbr[u * n + a];
      if (core[w] !== -1 || !adj[v * n + w]) continue;
      for (let b = a + 1; b < deg[u]; b++) {
        const x = nbr[u * n + b];
        if (core[x] !== -1 || !adj[v * n + x] || !adj[w * n + x]) continue;
        for (const y of [u, v, w, x]) this.enter(y, u);
        return;
      }
    }
  }

  /** Node y (in no set) joins a set it has exactly 3 neighbours in. */
  private tryJoin(y: number): void {
    const { n, nbr, deg, core } = this;
    for (let a = 0; a < deg[y]; a++) {
      const s = core[nbr[y * n + a]];
      if (s === -1) continue;
      let k = 0;
      for (let b = 0; b < deg[y]; b++) if (core[nbr[y * n + b]] === s) k++;
      if (k >= 3) {
        this.enter(y, s);
        return;
      }
    }
  }

  /** Sets s and t merge when 6 edges join them: 3|S| − 6 + 3|T| − 6 + 6 = 3(|S| + |T|) − 6. */
  private tryMerge(s: number, t: number): void {
    if (s === t) return;
    const { n, nbr, deg, core } = this;
    let k = 0;
    for (let y = 0; y < n; y++) {
      if (core[y] !== s) continue;
      for (let a = 0; a < deg[y]; a++) if (core[nbr[y * n + a]] === t) k++;
    }
    if (k < 6) return;
    for (let y = 0; y < n; y++) if (core[y] === t) this.enter(y, s);
  }

  private enter(y: number, s: number): void {
    this.core[y] = s;
    this.work.push(y);
  }

  /** A node that entered a set may complete a neighbour's join or a merge with a neighbouring set. */
  private settle(): void {
    const { n, nbr, deg, core, work } = this;
    while (work.length > 0) {
      const y = work.pop()!;
      for (let a = 0; a < deg[y]; a++) {
        const z = nbr[y * n + a];
        if (core[z] === -1) this.tryJoin(z);
        else if (core[z] !== core[y]) this.tryMerge(core[y], core[z]);
      }
    }
  }
}

/** Pair codes i·n + j (i < j) sorted by (d, code); code order is (i, j) order. */
function candidateOrder(corr: Float64Array, n: number): Int32Array {
  const count = (n * (n - 1)) / 2;
  const code = new Int32Array(count);
  const d = new Float64Array(n * n);
  let q = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      code[q++] = i * n + j;
      // The expression of graph.ts's edgeLength, so ties in d are the mst's ties.
      d[i * n + j] = Math.sqrt(2 * (1 - Math.abs(corr[i * n + j])));
    }
  }
  return code.sort((a, b) => d[a] - d[b] || a - b);
}
