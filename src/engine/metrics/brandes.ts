/**
 * What both of Dijkstra's frontier forms share (shortest-paths.ts, bucket-search.ts): the arrays of
 * one search per source, and what follows each search — closeness from the distances, Brandes'
 * dependency accumulation for betweenness — and the final scaling. Each search keeps its own copy
 * of the relaxation loop: one loop with both forms behind a flag ran 20–30% slower on a
 * 2,000-node knn graph (in-process A/B, docs/engine.md § Betweenness and closeness).
 */
import type { Graph } from "../graph.ts";
import { connectedComponents } from "./components.ts";
import type { ShortestPathMetrics } from "./path-metrics.ts";

export interface SearchArrays {
  n: number;
  bc: Float64Array;
  cc: Float64Array;
  /** Path counts; networkx's doubled counts (see the searches). */
  sigma: Float64Array;
  delta: Float64Array;
  /** Tentative distances; Infinity outside the current search (reset after each source). */
  seen: Float64Array;
  /** The predecessor of a node's first strict improvement. */
  via: Int32Array;
  /** Nodes in the order they were finished. */
  order: Int32Array;
  /** Predecessor lists as linked lists: each scanned directed edge adds at most one entry, so 2m slots suffice. */
  predHead: Int32Array;
  predNext: Int32Array;
  predNode: Int32Array;
  /** Each node's shortest incident edge length (Infinity when it has none), for the pruning. */
  shortest: Float64Array;
  /** The size of each node's connected component. */
  compSize: Int32Array;
}

export function searchArrays(g: Graph): SearchArrays {
  const n = g.n;
  const shortest = new Float64Array(n).fill(Infinity);
  for (let v = 0; v < n; v++) {
    for (let p = g.offsets[v]; p < g.offsets[v + 1]; p++) if (g.nbrD[p] < shortest[v]) shortest[v] = g.nbrD[p];
  }
  const { comp, members } = connectedComponents(g);
  return {
    n,
    bc: new Float64Array(n),
    cc: new Float64Array(n),
    sigma: new Float64Array(n),
    delta: new Float64Array(n),
    seen: new Float64Array(n).fill(Infinity),
    via: new Int32Array(n),
    order: new Int32Array(n),
    predHead: new Int32Array(n),
    predNext: new Int32Array(g.nbr.length + 1),
    predNode: new Int32Array(g.nbr.length + 1),
    shortest,
    compSize: Int32Array.from(comp, (c) => members[c].length),
  };
}

/**
 * After source s's search finished `count` nodes at total distance totsp: resets their distances,
 * sets s's closeness (Wasserman–Faust) and adds s's dependencies to betweenness (Brandes).
 */
export function finishSource(
  a: SearchArrays,
  s: number,
  count: number,
  totsp: number,
  wantBetweenness: boolean,
  wantCloseness: boolean,
): void {
  const { n, seen, order, sigma, delta, predHead, predNext, predNode, bc } = a;
  for (let q = 0; q < count; q++) seen[order[q]] = Infinity;
  if (wantCloseness && totsp > 0 && n > 1) a.cc[s] = ((count - 1) / totsp) * ((count - 1) / (n - 1));
  if (!wantBetweenness) return;
  for (let q = 0; q < count; q++) delta[order[q]] = 0;
  for (let q = count - 1; q >= 0; q--) {
    const w = order[q];
    const coeff = (1 + delta[w]) / sigma[w];
    for (let e = predHead[w]; e !== -1; e = predNext[e]) delta[predNode[e]] += sigma[predNode[e]] * coeff;
    if (w !== s) bc[w] += delta[w];
  }
}

/** Normalises betweenness as networkx does (normalized=True, undirected). */
export function finishAll(a: SearchArrays, wantBetweenness: boolean, wantCloseness: boolean): ShortestPathMetrics {
  const { n, bc } = a;
  if (wantBetweenness && n > 2) {
    const scale = 1 / ((n - 1) * (n - 2));
    for (let v = 0; v < n; v++) bc[v] *= scale;
  }
  return { betweenness: wantBetweenness ? bc : null, closeness: wantCloseness ? a.cc : null };
}
