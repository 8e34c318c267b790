/**
 * The cost model's shape, checked without a clock (docs/api.md § Request cost): each term responds
 * to its parameter, the worst-case methods are priced independently of the data, the engine's
 * bounds agree with the model's, and the series load is priced from what the request reads, not
 * from what is stored. How the estimates compare with measured CPU time is `npm run bench`'s
 * (bench/cost-grid.bench.ts and bench/cost-model.bench.ts; the load: bench/series-load.bench.ts).
 */
import { describe, expect, test } from "bun:test";
import { parseChartParams } from "../http/params/params.ts";
import { MAX_DISTANCE_BYTES } from "../engine/distance-correlation.ts";
import { costTerms, DCOR_HELD_BYTES, renderCost, requestCost, SORTED_FRONTIER_MAX } from "./request-cost.ts";
import { SORTED_FRONTIER_MAX as ENGINE_SORTED_FRONTIER_MAX } from "../engine/metrics/shortest-paths.ts";
import { renderBytes, requestBytes } from "./request-memory.ts";
import type { Format } from "./serialise.ts";

const parsed = (q: string) => {
  const p = parseChartParams(new URLSearchParams(q), { defaultUniverse: "x" });
  if (!p.ok) throw new Error(p.errors.join("; "));
  return p;
};
const params = (q: string) => parsed(q).params;
/** The query's format, as the route passes it: csv/ndjson rows are rendered with the computation. */
const format = (q: string): Format => parsed(q).format;

describe("the cost model", () => {
  test("threshold graphs are priced at their worst case: the estimate does not depend on the threshold", () => {
    expect(costTerms(params("graph_method=threshold&corr_threshold=0.6"), 100)).toEqual(
      costTerms(params("graph_method=threshold&corr_threshold=0"), 100),
    );
  });

  test("each knob moves the estimate the way it moves the work", () => {
    const base = params("graph_method=knn&knn_k=5&periods=20");
    const cost = (q: string) => requestCost(params(q), 150, undefined, format(q));
    expect(cost("graph_method=knn&knn_k=50&periods=20")).toBeGreaterThan(cost("graph_method=knn&knn_k=5&periods=20"));
    expect(requestCost(base, 150)).toBeGreaterThan(cost("graph_method=knn&knn_k=5&periods=20&include_graph=false"));
    expect(cost("graph_method=knn&knn_k=5&periods=20&include_graph=all")).toBeGreaterThanOrEqual(requestCost(base, 150));
    expect(cost("graph_method=knn&knn_k=5&periods=20&format=csv")).toBeGreaterThan(requestCost(base, 150));
    expect(cost("graph_method=knn&knn_k=5&periods=20&corr_method=spearman")).toBeGreaterThan(requestCost(base, 150));
    expect(cost("graph_method=knn&knn_k=5&periods=40")).toBeGreaterThan(requestCost(base, 150));
    expect(requestCost(base, 300)).toBeGreaterThan(requestCost(base, 150));
    // Issue 26's options each add work, and are priced so.
    for (const extra of ["corr_method=kendall", "corr_method=distance", "hierarchy=average", "weights=hrp", "clusters=5&hierarchy=ward"]) {
      expect(cost(`graph_method=knn&knn_k=5&periods=20&${extra}`)).toBeGreaterThan(requestCost(base, 150));
    }
    expect(cost("graph_method=pmfg&periods=20")).toBeGreaterThan(cost("graph_method=tmfg&periods=20"));
    expect(cost("graph_method=knn&knn_k=5&periods=20&corr_method=kendall")).toBeGreaterThan(
      cost("graph_method=knn&knn_k=5&periods=20&corr_method=spearman"),
    );
    expect(cost("graph_method=knn&knn_k=5&periods=20&weights=hrp")).toBeGreaterThan(
      cost("graph_method=knn&knn_k=5&periods=20&weights=equal"),
    );
  });

  test("another format of a result already computed is priced at its render job, far below computing", () => {
    for (const [n, q] of [
      [60, "graph_method=complete&periods=100"],
      [150, "graph_method=mst&weights=hrp&periods=30&lookback=120"],
    ] as const) {
      const p = params(q);
      for (const f of ["csv", "ndjson"] as const) {
        expect(renderCost(p, n, undefined, f)).toBeLessThan(requestCost(p, n, undefined, f) / 4);
        expect(renderBytes(p, n, p.periods, f)).toBeLessThan(requestBytes(p, n, p.periods, p.lookback + p.periods, f));
      }
    }
  });

  test("the series load is priced from the rows the windows cover: bars, resampling and symbols, not the stored history", () => {
    const p = params("lookback=2&metrics=pagerank&include_graph=false");
    const load = (n: number, bars: number, perBar: number) => costTerms(p, n, 1, "json", { bars, perBar }).load;
    expect(load(500, 3, 1)).toBeGreaterThan(load(250, 3, 1));
    expect(load(10, 3, 60)).toBeGreaterThan(load(10, 3, 1));
    expect(load(10, 300, 1)).toBeGreaterThan(load(10, 3, 1));
    // By default, the windows' bars at the requested interval: lookback + 1 + (periods - 1)·step.
    const rolling = params("lookback=20&periods=10&step=3");
    expect(costTerms(rolling, 50).load).toBe(costTerms(rolling, 50, 10, "json", { bars: 48, perBar: 1 }).load);
    expect(requestCost(p, 500, 1, "json", { bars: 3, perBar: 60 })).toBeGreaterThan(requestCost(p, 500, 1, "json", { bars: 3, perBar: 1 }));
  });

  test("the paths term is scaled where the engine's Dijkstra frontier changes form", () => {
    expect(SORTED_FRONTIER_MAX).toBe(ENGINE_SORTED_FRONTIER_MAX);
    const paths = (n: number) => costTerms(params("graph_method=knn"), n).paths / (n * n * Math.log2(n + 1));
    expect(paths(SORTED_FRONTIER_MAX + 1)).toBeLessThan(paths(SORTED_FRONTIER_MAX));
  });

  test("distance correlation is priced on the path the engine takes: past its bound on held vectors, the blocked scalar one", () => {
    expect(DCOR_HELD_BYTES).toBe(MAX_DISTANCE_BYTES);
    const terms = (n: number, L: number) => costTerms(params(`corr_method=distance&lookback=${L}`), n);
    expect(terms(250, 250).corr_dcor_gram).toBeGreaterThan(0);
    expect(terms(250, 250).corr_dcor_blocked).toBe(0);
    expect(terms(300, 250).corr_dcor_blocked).toBeGreaterThan(0);
    expect(terms(300, 250).corr_dcor_gram).toBe(0);
  });
});

test("the memory estimate counts issue 26's scratch and what it adds to the answer", () => {
  const bytes = (q: string) => requestBytes(params(q), 300, 20, 400);
  const base = bytes("periods=20&lookback=250");
  for (const extra of [
    "corr_method=kendall",
    "corr_method=distance",
    "graph_method=pmfg",
    "hierarchy=ward",
    "weights=hrp",
    "weights=equal",
  ]) {
    expect(bytes(`periods=20&lookback=250&${extra}`)).toBeGreaterThan(base);
  }
  // Distance correlation holds at most DCOR_HELD_BYTES of vectors (twice, with the WebAssembly kernel's copy).
  expect(bytes("periods=20&lookback=1000&corr_method=distance") - bytes("periods=20&lookback=1000")).toBeLessThanOrEqual(
    2 * DCOR_HELD_BYTES,
  );
  // Every as-of's tree is kept only with include_graph=all.
  expect(bytes("periods=20&hierarchy=single&include_graph=all") - bytes("periods=20&include_graph=all")).toBeGreaterThan(
    bytes("periods=20&hierarchy=single") - bytes("periods=20"),
  );
});

test("the memory estimate counts the signal-or-noise bootstrap scratch, spectrum and matrix, each with its parameter", () => {
  const bytes = (q: string, n = 50, asofs = 30, f: Format = "json") => requestBytes(params(q), n, asofs, 100, f);
  const base = bytes("periods=30&lookback=60&include_graph=all");
  // Bootstrap: B replicates' metric values per as-of grow with B, with the metrics asked and with the window.
  const boot = (q: string) => bytes(`periods=30&lookback=60&include_graph=all&${q}`);
  expect(boot("bootstrap=1")).toBeGreaterThan(base);
  expect(boot("bootstrap=1000") - boot("bootstrap=1")).toBe(8 * 999 * 50 * params("").metrics.length);
  expect(boot("bootstrap=200&metrics=pagerank,degree_strength,eigenvector_centrality")).toBeGreaterThan(
    boot("bootstrap=200&metrics=pagerank"),
  );
  expect(boot("bootstrap=200&graph_method=pmfg")).toBeGreaterThan(boot("bootstrap=200"));
  // Bootstrap=1000 over 500 symbols, five metrics: at least its 8·B·n·m bytes of replicate values.
  expect(requestBytes(params("bootstrap=1000"), 500, 1, 300)).toBeGreaterThan(8 * 1000 * 500 * 5);
  // The matrix: n² numbers per graph returned, every as-of's with include_graph=all, more again as csv rows.
  const corr = (graph: string, asofs: number, f: Format = "json") =>
    bytes(`periods=30&lookback=60&include_graph=${graph}&include_corr=true`, 50, asofs, f) -
    bytes(`periods=30&lookback=60&include_graph=${graph}`, 50, asofs, f);
  expect(corr("true", 30)).toBeGreaterThan(50 * 50 * 8);
  expect(corr("all", 30)).toBeGreaterThan(30 * 50 * 50 * 8);
  expect(corr("all", 30)).toBeGreaterThan(10 * corr("true", 30));
  expect(corr("all", 60)).toBeGreaterThan(corr("all", 30));
  expect(corr("all", 30, "csv")).toBeGreaterThan(corr("all", 30));
  expect(
    bytes("periods=30&lookback=60&include_graph=all&include_corr=true", 100) - bytes("periods=30&lookback=60&include_graph=all", 100),
  ).toBeGreaterThan(3.5 * corr("all", 30));
  // The spectrum: n eigenvalues per as-of, with the decomposition's scratch; denoise and detone that scratch alone.
  expect(bytes("periods=30&lookback=60&include_graph=all&spectrum=true")).toBeGreaterThan(base);
  expect(
    bytes("periods=30&lookback=60&include_graph=all&spectrum=true", 50, 60) - bytes("periods=30&lookback=60&include_graph=all", 50, 60),
  ).toBeGreaterThan(bytes("periods=30&lookback=60&include_graph=all&spectrum=true") - base);
  expect(bytes("periods=30&lookback=60&include_graph=all&denoise=mp")).toBeGreaterThan(base);
  expect(bytes("periods=30&lookback=60&include_graph=all&denoise=mp&detone=1")).toBeGreaterThan(
    bytes("periods=30&lookback=60&include_graph=all&denoise=mp"),
  );
  // A render job of a result with them holds their text and objects too.
  const p = params("periods=30&lookback=60&include_graph=all&include_corr=true&spectrum=true&bootstrap=10");
  expect(renderBytes(p, 50, 30, "csv")).toBeGreaterThan(
    renderBytes(params("periods=30&lookback=60&include_graph=all"), 50, 30, "csv") + 30 * 50 * 50 * 60,
  );
});

describe("the signal-or-noise terms (operation counts)", () => {
  const terms = (q: string, n = 50, asofs = 1) => costTerms(params(q), n, asofs);
  test("denoise, detone and spectrum: n³ per decomposition per as-of, two with denoise and detone", () => {
    expect(terms("").eigen_decomposition).toBe(0);
    expect(terms("spectrum=true").eigen_decomposition).toBe(50 ** 3 / 1e6);
    expect(terms("denoise=mp").eigen_decomposition).toBe(50 ** 3 / 1e6);
    expect(terms("denoise=mp&detone=1").eigen_decomposition).toBe((2 * 50 ** 3) / 1e6);
    expect(terms("spectrum=true", 100, 30).eigen_decomposition).toBe((30 * 100 ** 3) / 1e6);
  });

  test("bootstrap: B times the window's pipeline, per as-of, and it follows that pipeline's parameters", () => {
    expect(terms("").bootstrap).toBe(0);
    const one = terms("bootstrap=1").bootstrap;
    expect(one).toBeGreaterThan(0);
    expect(terms("bootstrap=200").bootstrap).toBeCloseTo(200 * one, 9);
    expect(terms("bootstrap=10", 50, 30).bootstrap).toBeCloseTo(300 * one, 9);
    expect(terms("bootstrap=1", 100).bootstrap).toBeGreaterThan(one);
    expect(terms("bootstrap=1&graph_method=pmfg").bootstrap).toBeGreaterThan(one);
    expect(terms("bootstrap=1&denoise=mp").bootstrap).toBeGreaterThan(one);
    expect(requestCost(params("bootstrap=1000&graph_method=pmfg"), 500, 100)).toBeGreaterThan(10_000);
  });
});
