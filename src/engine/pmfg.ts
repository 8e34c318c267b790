/**
 * Planar Maximally Filtered Graph (Tumminello, Aste, Di Matteo, Mantegna 2005): candidate edges
 * by decreasing |ρ|, each kept if the graph stays planar, until 3(n−2) edges. The order, its
 * tie-break and the n < 5 cases: docs/engine.md § PMFG.
 */
import { PlaneEmbedding } from "./plane-embedding.ts";
import { PlanarityTester } from "./planarity.ts";
import { candidateOrder, type OrderScratch } from "./pmfg-order.ts";
import { RigidSets } from "./rigid-sets.ts";

export interface Pmfg {
  /** Edge pairs (i, j), i < j, in insertion order (the same form as tmfg's). */
  pairs: number[];
}

/** How the candidates were decided (tests and the bench read it; the result does not depend on it). */
export interface PmfgCounts {
  /** Kept without a test: between two components, or into a face both ends share. */
  bridges: number;
  faceKept: number;
  /** Refused without a test by a 3-connected set (RigidSets). */
  rigidRefused: number;
  /** Left-right tests run, and how many kept their candidate. */
  tests: number;
  testKept: number;
  /** RigidSets growth that re-reads faces off the embedding: set merges, node pairs joining. */
  merges: number;
  pairJoins: number;
}

/**
 * n*n row-major correlation matrix -> PMFG. Candidates in the strict order (d, i, j) with
 * d = √(2(1 − |ρ|)), graph.ts's edgeLength: decreasing |ρ|, the ties as mst breaks them, so the
 * PMFG contains exactly the mst graph's edges.
 */
export function pmfg(corr: Float64Array, n: number, counts?: PmfgCounts): Pmfg {
  const c = counts ?? { bridges: 0, faceKept: 0, rigidRefused: 0, tests: 0, testKept: 0, merges: 0, pairJoins: 0 };
  const pairs: number[] = [];
  if (n <= 4) {
    // 3(n−2) ≥ n(n−1)/2 here: every edge fits (n = 2 keeps its one edge, as tmfg does).
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) pairs.push(i, j);
    return { pairs };
  }
  const target = 3 * (n - 2);
  const ws = workspace(n);
  const cand = candidateOrder(corr, n, ws);
  const { eu, ev, tester, plane, rigid, parent } = ws;
  plane.reset();
  rigid.reset(c);
  tester.forget();
  for (let v = 0; v < n; v++) parent[v] = v;
  // Each candidate, cheapest exact decision first (docs/engine.md § PMFG): an edge between two
  // components (union-find) keeps any planar graph planar; a 3-connected set may prove G + uv
  // non-planar (RigidSets); if u and v share a face of the kept plane embedding of G, the edge
  // fits there; only else the left-right test, whose embedding phase then re-embeds the component.
  const find = (v: number) => {
    while (parent[v] !== v) v = parent[v] = parent[parent[v]];
    return v;
  };
  let m = 0;
  for (let q = 0; q < cand.length && m < target; q++) {
    const i = Math.floor(cand[q] / n);
    const j = cand[q] - i * n;
    const ri = find(i);
    const rj = find(j);
    eu[m] = i;
    ev[m] = j;
    if (ri !== rj) {
      parent[ri] = rj;
      plane.addBridge(i, j);
      tester.kept(m, i, j);
      c.bridges++;
    } else if (rigid.refuses(i, j)) {
      c.rigidRefused++;
      continue;
    } else if (plane.addInFace(i, j) || plane.addByMoving(i, j)) {
      tester.kept(m, i, j);
      c.faceKept++;
    } else {
      c.tests++;
      if (!tester.isPlanarWith(n, m + 1, eu, ev, i)) continue;
      c.testKept++;
      plane.addEdge(i, j);
      if (plane.valid) {
        tester.embed(plane.cw, plane.ccw, plane.first, n);
        plane.check(i);
      }
    }
    m++;
    pairs.push(i, j);
    rigid.addEdge(i, j);
  }
  return { pairs };
}

/**
 * The typed arrays and structures of one pmfg() call, kept for the next call of the same n (a
 * rolling request's) up to CACHED_MAX_N nodes (~1.8 MB of n×n arrays there); larger n allocates per call.
 */
interface Workspace extends OrderScratch {
  n: number;
  eu: Int32Array;
  ev: Int32Array;
  parent: Int32Array;
  tester: PlanarityTester;
  plane: PlaneEmbedding;
  rigid: RigidSets;
}
let cached: Workspace | null = null;
const CACHED_MAX_N = 256;

function workspace(n: number): Workspace {
  if (cached !== null && cached.n === n) return cached;
  const target = 3 * (n - 2);
  const count = (n * (n - 1)) / 2;
  const plane = new PlaneEmbedding(n);
  const ws: Workspace = {
    n,
    eu: new Int32Array(target),
    ev: new Int32Array(target),
    parent: new Int32Array(n),
    tester: new PlanarityTester(n, target),
    plane,
    rigid: new RigidSets(n, plane),
    code: new Int32Array(count),
    key: new Float64Array(count),
    idx: new Int32Array(count),
    tmp: new Int32Array(count),
  };
  if (n <= CACHED_MAX_N) cached = ws;
  return ws;
}
