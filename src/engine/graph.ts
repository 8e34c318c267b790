/**
 * Correlation graph construction (README.md § How the numbers are computed, steps 4–5): edges with
 * w = |rho| and d = sqrt(2(1 - |rho|)), stored as a sorted edge list plus a CSR adjacency. The CSR
 * form is what the metric kernels iterate over; building it once per as-of avoids allocating a
 * general-purpose graph object (graphology) for every window of a rolling request.
 */
import { pmfg } from "./pmfg.ts";
import { tmfg } from "./tmfg.ts";
import type { GraphMethod } from "./types.ts";

export interface Graph {
  /** nodes 0..n-1 in response order */
  n: number;
  /** edges, src < dst, sorted by (src, dst) */
  src: Int32Array;
  dst: Int32Array;
  /** |rho| */
  w: Float64Array;
  /** sqrt(2 * (1 - |rho|)) */
  d: Float64Array;
  /** signed rho */
  corr: Float64Array;
  /** CSR adjacency, both directions; neighbours of v are nbr[offsets[v] .. offsets[v+1]), ascending */
  offsets: Int32Array;
  nbr: Int32Array;
  nbrW: Float64Array;
  nbrD: Float64Array;
}

/** Edge length used for shortest paths and the MST; the same expression everywhere keeps ties exact. */
export function edgeLength(absRho: number): number {
  return Math.sqrt(2 * (1 - absRho));
}

/** Builds a Graph from an edge list of pairs (i < j) given in any order. */
export function graphFromPairs(corr: Float64Array, n: number, pairs: number[]): Graph {
  const m = pairs.length / 2;
  let sorted = true;
  for (let e = 1; e < m && sorted; e++) {
    sorted = pairs[2 * e - 2] < pairs[2 * e] || (pairs[2 * e - 2] === pairs[2 * e] && pairs[2 * e - 1] < pairs[2 * e + 1]);
  }
  // The builders below emit their pairs in (i, j) order already (mst aside); then no index array
  // is built (creating it per as-of showed in the snapshot profile).
  let idx: Int32Array | null = null;
  if (!sorted) {
    const order = Array.from({ length: m }, (_, e) => e).sort((a, b) => pairs[2 * a] - pairs[2 * b] || pairs[2 * a + 1] - pairs[2 * b + 1]);
    idx = Int32Array.from(order);
  }
  const src = new Int32Array(m);
  const dst = new Int32Array(m);
  const w = new Float64Array(m);
  const d = new Float64Array(m);
  const c = new Float64Array(m);
  const deg = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    const at = idx === null ? e : idx[e];
    const i = pairs[2 * at];
    const j = pairs[2 * at + 1];
    src[e] = i;
    dst[e] = j;
    c[e] = corr[i * n + j];
    w[e] = Math.abs(c[e]);
    d[e] = edgeLength(w[e]);
    deg[i + 1]++;
    deg[j + 1]++;
  }
  const offsets = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) offsets[v + 1] = offsets[v] + deg[v + 1];
  const fill = offsets.slice(0, n);
  const nbr = new Int32Array(2 * m);
  const nbrW = new Float64Array(2 * m);
  const nbrD = new Float64Array(2 * m);
  // Edges are sorted by (src, dst): pass 1 writes the lower-index neighbours of each node in
  // ascending order, pass 2 the higher-index ones, so every CSR row ends up ascending.
  for (let e = 0; e < m; e++) {
    const p = fill[dst[e]]++;
    nbr[p] = src[e];
    nbrW[p] = w[e];
    nbrD[p] = d[e];
  }
  for (let e = 0; e < m; e++) {
    const p = fill[src[e]]++;
    nbr[p] = dst[e];
    nbrW[p] = w[e];
    nbrD[p] = d[e];
  }
  return { n, src, dst, w, d, corr: c, offsets, nbr, nbrW, nbrD };
}

function completePairs(n: number): number[] {
  const pairs: number[] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) pairs.push(i, j);
  return pairs;
}

function thresholdPairs(corr: Float64Array, n: number, t: number): number[] {
  const pairs: number[] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (Math.abs(corr[i * n + j]) >= t) pairs.push(i, j);
  return pairs;
}

/**
 * Top-k selection per row with a k-slot insertion buffer, O(n·k) per row instead of a full sort:
 * hand-written for the 500-symbol benchmark, where sorting every row cost ~75 ms per as-of.
 */
function knnPairs(corr: Float64Array, n: number, k: number): number[] {
  const keep = new Uint8Array(n * n);
  const take = Math.min(k, n - 1);
  const topJ = new Int32Array(take + 1);
  const topW = new Float64Array(take + 1);
  for (let i = 0; i < n; i++) {
    let size = 0;
    const row = i * n;
    // Candidates arrive in ascending j, so a strictly greater |rho| is the only way to overtake:
    // equal |rho| keeps the lower index first (README.md § How the numbers are computed, step 5).
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const wj = Math.abs(corr[row + j]);
      if (size === take && !(wj > topW[size - 1])) continue;
      let p = size < take ? size++ : size - 1;
      while (p > 0 && wj > topW[p - 1]) {
        topW[p] = topW[p - 1];
        topJ[p] = topJ[p - 1];
        p--;
      }
      topW[p] = wj;
      topJ[p] = j;
    }
    for (let r = 0; r < size; r++) {
      const j = topJ[r];
      keep[i < j ? row + j : j * n + i] = 1;
    }
  }
  const pairs: number[] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (keep[i * n + j]) pairs.push(i, j);
  return pairs;
}

/**
 * For |rho| in [0, 1], a gap of 1e-9 in |rho| is a gap of at least 5e-10 relative in 1 − |rho| ≤ 2,
 * far above the few ulps by which computing d = sqrt(2(1 − |rho|)) could make two values equal.
 */
const MST_MARGIN = 1e-9;

/** Edge a-b of length da before edge c-e of length dc in the order (d, lower end, higher end)? */
function edgeLess(da: number, a: number, b: number, dc: number, c: number, e: number): boolean {
  if (da !== dc) return da < dc;
  const alo = Math.min(a, b);
  const clo = Math.min(c, e);
  if (alo !== clo) return alo < clo;
  return Math.max(a, b) < Math.max(c, e);
}

/**
 * Minimum spanning tree on d by Prim on the dense matrix, O(n²), with edges compared by the
 * strict total order (d, i, j), i < j. Under a strict total order the MST is unique, so this is
 * exactly networkx's minimum_spanning_tree (Kruskal over a stable sort of the (i < j) edge list)
 * including under ties. Hand-written because sorting all n(n-1)/2 edges dominated the MST graph
 * stage in bench/engine.bench.ts. test/reference/kruskal.ts is the reference the tests compare with.
 */
export function mstPairs(corr: Float64Array, n: number): number[] {
  const inTree = new Uint8Array(n);
  const bestD = new Float64Array(n).fill(Infinity);
  const bestU = new Int32Array(n).fill(-1);
  // |rho| of each node's best edge: d falls as |rho| rises, so an edge whose |rho| is below it by
  // more than any rounding of d can hide is strictly longer and needs no square root.
  const bestAbs = new Float64Array(n).fill(-1);
  const pairs: number[] = [];
  let u = 0;
  inTree[0] = 1;
  for (let added = 1; added < n; added++) {
    const row = u * n;
    // Each outside node's best edge updated with u's, and the next node (the smallest best edge) in one
    // pass: with the square roots skipped, 0.5-0.7x the time of the two passes at n = 500-2,000.
    let next = -1;
    let nextD = Infinity;
    for (let v = 0; v < n; v++) {
      if (inTree[v]) continue;
      const a = Math.abs(corr[row + v]);
      if (!(a < bestAbs[v] - MST_MARGIN)) {
        const d = edgeLength(a);
        if (bestU[v] === -1 || edgeLess(d, u, v, bestD[v], bestU[v], v)) {
          bestD[v] = d;
          bestU[v] = u;
          bestAbs[v] = a;
        }
      }
      const dv = bestD[v];
      if (next === -1 || dv < nextD || (dv === nextD && edgeLess(dv, bestU[v], v, nextD, bestU[next], next))) {
        next = v;
        nextD = dv;
      }
    }
    const p = bestU[next];
    pairs.push(Math.min(p, next), Math.max(p, next));
    inTree[next] = 1;
    u = next;
  }
  return pairs;
}

/** Builds the correlation graph of README.md § How the numbers are computed, step 5, from an n*n row-major correlation matrix. */
export function buildGraph(corr: Float64Array, n: number, method: GraphMethod, opts: { knnK: number; threshold: number }): Graph {
  switch (method) {
    case "complete":
      return graphFromPairs(corr, n, completePairs(n));
    case "threshold":
      return graphFromPairs(corr, n, thresholdPairs(corr, n, opts.threshold));
    case "knn":
      return graphFromPairs(corr, n, knnPairs(corr, n, opts.knnK));
    case "mst":
      return graphFromPairs(corr, n, mstPairs(corr, n));
    case "tmfg":
      return graphFromPairs(corr, n, tmfg(corr, n).pairs);
    case "pmfg":
      return graphFromPairs(corr, n, pmfg(corr, n).pairs);
  }
}
