import { test } from "bun:test";
import { loadNifty, alignNifty } from "./fixtures/pipeline.ts";
import { correlationMatrix } from "./correlation.ts";
import { buildGraph } from "./graph.ts";
import { computeMetrics } from "./metrics/index.ts";
import { louvain } from "./louvain.ts";
import { METRICS } from "./types.ts";
test("time", () => {
  const data = loadNifty();
  const syms = [...data.keys()].sort();
  const { labels, closes } = alignNifty(data, syms);
  const t = labels.length - 1, lb = 60;
  const rets = closes.map((c) => Float64Array.from({ length: lb }, (_, k) => Math.log(c[t - lb + k + 1] / c[t - lb + k])));
  const corr = correlationMatrix(rets, "pearson");
  for (const method of ["complete", "mst", "knn", "threshold"] as const) {
    const g = buildGraph(corr, 50, method, { knnK: 4, threshold: 0.5 });
    for (let i = 0; i < 20; i++) { computeMetrics(g, METRICS); louvain(g); }
    const N = 100;
    let t0 = performance.now();
    for (let i = 0; i < N; i++) buildGraph(corr, 50, method, { knnK: 4, threshold: 0.5 });
    const tb = (performance.now() - t0) / N;
    t0 = performance.now();
    for (let i = 0; i < N; i++) computeMetrics(g, METRICS);
    const tm = (performance.now() - t0) / N;
    t0 = performance.now();
    for (let i = 0; i < N; i++) louvain(g);
    const tl = (performance.now() - t0) / N;
    console.log(method, "edges", g.src.length, "build", tb.toFixed(3), "metrics", tm.toFixed(3), "louvain", tl.toFixed(3), "ms");
  }
  let t0 = performance.now();
  for (let i = 0; i < 200; i++) correlationMatrix(rets, "pearson");
  console.log("corr pearson", ((performance.now() - t0) / 200).toFixed(3));
  t0 = performance.now();
  for (let i = 0; i < 200; i++) correlationMatrix(rets, "spearman");
  console.log("corr spearman", ((performance.now() - t0) / 200).toFixed(3));
}, 60000);
