/**
 * Where a rolling research call spends its time, per stage summed over its as-ofs (every as-of's
 * Louvain and graph statistics included, as rolling calls now compute them): for
 * bench/research.bench.ts, to show which stage a graph method's extra time sits in.
 */
import { correlationMatrix } from "../src/engine/correlation.ts";
import { buildGraph, type Graph } from "../src/engine/graph.ts";
import { graphStats } from "../src/engine/graph-summary.ts";
import { louvain } from "../src/engine/louvain.ts";
import { computeMetrics } from "../src/engine/metrics/index.ts";
import { METRICS, type ChartParams, type SeriesInput } from "../src/engine/types.ts";
import { buildReturnsPanel, windowMembers, windowSeries } from "../src/engine/window.ts";
import { median } from "./median.ts";

/** Median ms per stage over `repeats` passes; the as-ofs are the last `periods` bars up to `last`. */
export function rollingStages(input: SeriesInput, p: ChartParams, last: number, repeats: number): [string, number][] {
  const first = last - p.periods + 1;
  const panel = buildReturnsPanel(input.closes, first, last, p.lookback);
  const asofs = Array.from({ length: p.periods }, (_, k) => first + k);
  const corrs = asofs.map((t) => {
    const series = windowSeries(panel, windowMembers(panel, t).nodes, t);
    return { n: series.length, corr: correlationMatrix(series, p.corr_method, 0, p.lookback) };
  });
  const opts = { knnK: p.knn_k, threshold: p.corr_threshold };
  const graphs: Graph[] = corrs.map(({ corr, n }) => buildGraph(corr, n, p.graph_method, opts));
  const stages: [string, () => void][] = [
    ["graph", () => corrs.forEach(({ corr, n }) => buildGraph(corr, n, p.graph_method, opts))],
    ...METRICS.map((m): [string, () => void] => [m, () => graphs.forEach((g) => computeMetrics(g, [m]))]),
    ["louvain + modularity", () => graphs.forEach((g) => louvain(g))],
    [
      "graph statistics (without closeness to reuse)",
      () => graphs.forEach((g, k) => graphStats(g, corrs[k].corr, p.graph_method === "mst", null)),
    ],
  ];
  return stages.map(([name, f]) => {
    for (let k = 0; k < 3; k++) f();
    const ts: number[] = [];
    for (let k = 0; k < repeats; k++) {
      const t0 = performance.now();
      f();
      ts.push(performance.now() - t0);
    }
    return [name, median(ts)];
  });
}
