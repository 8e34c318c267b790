/**
 * Where the engine's time goes: each stage of computeChart timed on its own over the as-of
 * bars of one request (same windows, same graphs), for bench/engine.bench.ts.
 */
import { correlationMatrix } from "../src/engine/correlation.ts";
import { buildGraph } from "../src/engine/graph.ts";
import { louvain } from "../src/engine/louvain.ts";
import { computeMetrics } from "../src/engine/metrics/index.ts";
import { SlidingMoments } from "../src/engine/rolling-moments.ts";
import { METRICS, type ChartParams, type SeriesInput } from "../src/engine/types.ts";
import { buildReturnsPanel, windowMembers, windowSeries } from "../src/engine/window.ts";
import { median } from "./median.ts";

/** Median wall time (ms) of f over `repeats` runs after `warmup` untimed runs. */
export function timeMs(f: () => unknown, repeats: number, warmup = 5): { median: number; min: number } {
  for (let k = 0; k < warmup; k++) f();
  const ts: number[] = [];
  for (let k = 0; k < repeats; k++) {
    const t0 = performance.now();
    f();
    ts.push(performance.now() - t0);
  }
  return { median: median(ts), min: Math.min(...ts) };
}

/**
 * Median ms per stage, summed over all as-ofs of the request (the last as-of only for Louvain);
 * last: calendar index of the latest as-of (default the last bar).
 */
export function stageTimes(input: SeriesInput, p: ChartParams, repeats: number, last = input.labels.length - 1): [string, number][] {
  const asofs = Array.from({ length: p.periods }, (_, q) => last - (p.periods - 1 - q) * p.step);
  const panel = buildReturnsPanel(input.closes, asofs[0], last, p.lookback);
  const nodes = asofs.map((t) => windowMembers(panel, t).nodes);
  const opts = { knnK: p.knn_k, threshold: p.corr_threshold };
  const corrs = asofs.map((t, q) => correlationMatrix(windowSeries(panel, nodes[q], t), p.corr_method));
  const graphs = corrs.map((c, q) => buildGraph(c, nodes[q].length, p.graph_method, opts));
  const warm = repeats > 3 ? 3 : 1;
  const out: [string, number][] = [
    [
      "returns + participation",
      timeMs(
        () => {
          const fresh = buildReturnsPanel(input.closes, asofs[0], last, p.lookback);
          asofs.forEach((t) => windowMembers(fresh, t));
        },
        repeats,
        warm,
      ).median,
    ],
    [
      "correlation, from scratch each as-of",
      timeMs(() => asofs.forEach((t, q) => correlationMatrix(windowSeries(panel, nodes[q], t), p.corr_method)), repeats, warm).median,
    ],
  ];
  if (p.periods > 1) {
    out.push([
      "correlation, sliding moments",
      timeMs(
        () => {
          const sm = new SlidingMoments(panel);
          asofs.forEach((t, q) => sm.correlationAt(t, nodes[q]));
        },
        repeats,
        warm,
      ).median,
    ]);
  }
  out.push([
    `graph (${p.graph_method})`,
    timeMs(() => corrs.forEach((c, q) => buildGraph(c, nodes[q].length, p.graph_method, opts)), repeats, warm).median,
  ]);
  for (const m of METRICS) out.push([m, timeMs(() => graphs.forEach((g) => computeMetrics(g, [m])), repeats, warm).median]);
  out.push(["all five metrics together", timeMs(() => graphs.forEach((g) => computeMetrics(g, METRICS)), repeats, warm).median]);
  out.push(["louvain (latest graph)", timeMs(() => louvain(graphs[graphs.length - 1]), repeats, warm).median]);
  return out;
}
