/**
 * Whole-graph statistics of one as-of (issue 15), each defined to match a networkx expression
 * (bench/networkx/generate_fixtures.py computes the golden values):
 * - modularity: of the Louvain partition the response reports (modularity.ts);
 * - mean_abs_corr: (1/|E|) Σ_{(i,j)∈E} |ρ_ij| over the returned graph's edges; null without edges;
 * - tree_length: Onnela's normalised tree length L = 1/(n−1) Σ_{(i,j)∈MST} d_ij over the minimum
 *   spanning tree of the full correlation matrix (whatever graph_method is returned);
 * - avg_shortest_path: nx.average_shortest_path_length(G, weight="d") = Σ_{u≠v} dist(u,v) / (n(n−1));
 *   null when the graph is disconnected (networkx raises there).
 */
import { edgeLength, mstPairs, type Graph } from "./graph.ts";
import { connectedComponents } from "./metrics/components.ts";
import { shortestPathMetrics } from "./metrics/shortest-paths.ts";

export interface RawGraphStats {
  meanAbsCorr: number | null;
  treeLength: number | null;
  avgShortestPath: number | null;
}

/**
 * corr: the n×n matrix g was built from; isMst: g is that matrix's MST (its lengths are reused);
 * closeness: nx.closeness_centrality(G, distance="d") when the metrics already computed it.
 */
export function graphStats(g: Graph, corr: Float64Array, isMst: boolean, closeness: Float64Array | null): RawGraphStats {
  const n = g.n;
  const m = g.src.length;
  let sumW = 0;
  for (let e = 0; e < m; e++) sumW += g.w[e];
  return {
    meanAbsCorr: m > 0 ? sumW / m : null,
    treeLength: n >= 2 ? treeLength(g, corr, isMst) : null,
    avgShortestPath: averageShortestPath(g, closeness),
  };
}

function treeLength(g: Graph, corr: Float64Array, isMst: boolean): number {
  const n = g.n;
  let sum = 0;
  if (isMst) {
    for (let e = 0; e < g.d.length; e++) sum += g.d[e];
  } else {
    const pairs = mstPairs(corr, n);
    for (let q = 0; q < pairs.length; q += 2) sum += edgeLength(Math.abs(corr[pairs[q] * n + pairs[q + 1]]));
  }
  return sum / (n - 1);
}

/**
 * On a connected graph networkx's closeness is c_v = (n−1)/Σ_u dist(v,u), so the mean distance is
 * (1/n) Σ_v 1/c_v; c_v = 0 there only when every distance from v is 0 (|ρ| = 1 edges), adding 0.
 * Reusing closeness spares a second all-pairs search when the metrics ran one.
 */
function averageShortestPath(g: Graph, closeness: Float64Array | null): number | null {
  const n = g.n;
  if (n < 2 || connectedComponents(g).members.length !== 1) return null;
  const c = closeness ?? shortestPathMetrics(g, false, true).closeness!;
  let sum = 0;
  for (let v = 0; v < n; v++) sum += c[v] > 0 ? 1 / c[v] : 0;
  return sum / n;
}
