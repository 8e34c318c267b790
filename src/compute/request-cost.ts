/**
 * What a chart request will cost, estimated from its parameters and symbol count alone, so it is
 * refused before admission when over the budget (DECISIONS §6). The unit is roughly a million
 * inner-loop steps; on the reference machine (docs/benchmarks.md) one unit is about 1–2 ms.
 *
 *   cost = periods × n² × (corr + graph) / 1e6
 *   corr  = lookback × c_corr          (c_corr: pearson 1, ewma 1.5, spearman 3; ×1.5 with ledoit_wolf shrinkage
 *                                        or market_mode=remove; a rolling plain-Pearson request updates its sums
 *                                        by `step` bars per as-of instead, so lookback becomes min(step, lookback))
 *   graph = n × c_graph                (c_graph: complete and threshold 1, as betweenness and closeness walk
 *                                        every edge from every node; mst, knn, tmfg 0.05; ×0.1 when the metrics
 *                                        include neither betweenness nor closeness)
 */
import type { ChartParams } from "../engine/types.ts";

const CORR_FACTOR = { pearson: 1, ewma: 1.5, spearman: 3 } as const;
const DENSE = new Set(["complete", "threshold"]);

/** The default budget: the heaviest request it admits computes in roughly 10 s on one thread. */
export const DEFAULT_COST_BUDGET = 6000;

/** Estimated cost (see the formula above) of computing params over n symbols, rounded up. */
export function requestCost(params: ChartParams, n: number, asofCount = params.periods): number {
  const plainPearson = params.corr_method === "pearson" && params.shrinkage === "none" && params.market_mode === "keep";
  let corr = (asofCount > 1 && plainPearson ? Math.min(params.step, params.lookback) : params.lookback) * CORR_FACTOR[params.corr_method];
  if (params.shrinkage !== "none" || params.market_mode !== "keep") corr *= 1.5;
  let graph = n * (DENSE.has(params.graph_method) ? 1 : 0.05);
  if (!params.metrics.includes("betweenness_centrality") && !params.metrics.includes("closeness_centrality")) graph *= 0.1;
  return Math.ceil((asofCount * n * n * (corr + graph)) / 1e6);
}

/** An upper bound on the edges of one as-of's graph over n nodes (the response carries them). */
export function maxEdges(params: ChartParams, n: number): number {
  const all = (n * (n - 1)) / 2;
  switch (params.graph_method) {
    case "mst":
      return Math.max(0, n - 1);
    case "tmfg":
      return n < 3 ? Math.max(0, n - 1) : 3 * n - 6;
    case "knn":
      return Math.min(all, n * params.knn_k);
    default:
      return all; // complete; threshold at worst keeps every pair
  }
}
