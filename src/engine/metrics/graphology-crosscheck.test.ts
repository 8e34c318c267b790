/**
 * Second reference besides the networkx fixtures: graphology-metrics on the same graphs.
 * (Closeness is not compared: graphology's ignores edge weights.)
 */
import { describe, expect, test } from "bun:test";
import UndirectedGraph from "graphology";
import betweenness from "graphology-metrics/centrality/betweenness";
import eigenvector from "graphology-metrics/centrality/eigenvector";
import pagerankRef from "graphology-metrics/centrality/pagerank";
import { correlationMatrix } from "../correlation.ts";
import { describeNifty, loadNifty } from "../../../test/support/nifty.ts";
import { sampleSeriesInput } from "../../market/sample-series.ts";
import { buildGraph, type Graph } from "../graph.ts";
import type { GraphMethod, SeriesInput } from "../types.ts";
import { computeMetrics } from "./index.ts";

function toGraphology(g: Graph) {
  const ref = new UndirectedGraph({ type: "undirected" });
  for (let v = 0; v < g.n; v++) ref.addNode(String(v));
  for (let e = 0; e < g.src.length; e++) ref.addEdge(String(g.src[e]), String(g.dst[e]), { weight: g.w[e], d: g.d[e] });
  return ref;
}

/** Pearson correlation of every symbol's log returns over the last 60 bars. */
function lastCorr({ closes, labels }: SeriesInput): Float64Array {
  const t = labels.length - 1;
  const returns = closes.map((c) => Float64Array.from({ length: 60 }, (_, k) => Math.log(c[t - 60 + k + 1] / c[t - 60 + k])));
  return correlationMatrix(returns, "pearson");
}

function crosscheck(load: () => SeriesInput): void {
  for (const method of ["mst", "knn", "complete", "threshold"] as GraphMethod[]) {
    test(method, () => {
      const input = load();
      const g = buildGraph(lastCorr(input), input.symbols.length, method, { knnK: 4, threshold: 0.5 });
      const ref = toGraphology(g);
      const ours = computeMetrics(g, ["pagerank", "betweenness_centrality", "eigenvector_centrality"]).values;
      const pr = pagerankRef(ref, { getEdgeWeight: "weight", alpha: 0.85, tolerance: 1e-12, maxIterations: 100000 });
      const bc = betweenness(ref, { getEdgeWeight: "d", normalized: true });
      const ev = eigenvector(ref, { getEdgeWeight: "weight", tolerance: 1e-12, maxIterations: 100000 });
      for (let v = 0; v < g.n; v++) {
        expect(Math.abs(ours.pagerank![v] - pr[String(v)])).toBeLessThan(1e-6);
        expect(Math.abs(ours.betweenness_centrality![v] - bc[String(v)])).toBeLessThan(1e-6);
        expect(Math.abs(ours.eigenvector_centrality![v] - ev[String(v)])).toBeLessThan(1e-6);
      }
    });
  }
}

let sample: SeriesInput | undefined;
describe("metrics agree with graphology-metrics on the synthetic sample (last 60 bars)", () =>
  crosscheck(() => (sample ??= sampleSeriesInput())));
describeNifty("metrics agree with graphology-metrics on the NIFTY 50 (last 60 bars)", () => crosscheck(() => loadNifty()));
