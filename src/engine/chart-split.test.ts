/**
 * A rolling request split into parts (computeChartPartSteps, one share of the as-ofs each, as
 * compute threads compute them) and joined (joinChart) gives the same bytes as computing it whole:
 * the sliding sums are replayed, not approximated, and community tracking and turnover run across the join.
 */
import { describe, expect, test } from "bun:test";
import { factorInput } from "../../test/support/engine/random-returns.ts";
import { parseChartParams } from "../http/params/params.ts";
import { sampleSeriesInput } from "../market/sample-series.ts";
import { computeChart, computeChartPartSteps, joinChart, type ChartPart } from "./chart.ts";
import type { ChartParams, SeriesInput } from "./types.ts";

function params(q: string): ChartParams {
  const r = parseChartParams(new URLSearchParams(q), { defaultUniverse: "x" });
  if (!r.ok) throw new Error(r.errors.join(" | "));
  return r.params;
}

/** Every part run to the end, then passed through structured clone as a thread's reply is. */
function split(input: SeriesInput, p: ChartParams, of: number): string {
  const parts: ChartPart[] = [];
  for (let index = 0; index < of; index++) {
    const steps = computeChartPartSteps(input, p, index, of);
    for (;;) {
      const r = steps.next();
      if (r.done) {
        parts.push(structuredClone(r.value));
        break;
      }
    }
  }
  return JSON.stringify(joinChart(input.symbols, p, parts));
}

/** Part `index` of `of`'s as-of results, before rounding. */
function partResults(input: SeriesInput, p: ChartParams, index: number, of: number) {
  const steps = computeChartPartSteps(input, p, index, of);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value.results;
  }
}

const outcome = (run: () => string) => {
  try {
    return run();
  } catch (err) {
    return `${(err as Error).name}: ${(err as Error).message}`;
  }
};

/** A factor model with holes: symbols join and leave windows, so the sliding sums rebuild rows. */
function gappy(n: number, bars: number): SeriesInput {
  const input = factorInput(n, bars, 5);
  input.closes.forEach((c, i) => {
    if (i % 4 === 1) c.fill(NaN, 0, 40 + 7 * i); // starts late
    if (i % 5 === 2) c.fill(NaN, 150 + i, 160 + i); // a gap
    if (i % 7 === 3) c.fill(NaN, bars - 20 - i); // stops early
  });
  return input;
}

describe("a rolling request split into parts and joined", () => {
  const sample = sampleSeriesInput();
  const holes = gappy(40, 420);
  const cases: [string, SeriesInput, string][] = [
    // Sliding Pearson sums over 250 as-ofs, lookback 20: full rebuilds every 81 as-ofs, so parts replay across one.
    [
      "sliding sums across full rebuilds",
      factorInput(30, 400, 3),
      "periods=250&step=1&lookback=20&graph_method=knn&knn_k=5&include_graph=true",
    ],
    ["sliding sums with symbols joining and leaving", holes, "periods=120&step=2&lookback=30&graph_method=mst&include_graph=true"],
    [
      "membership changes without sliding (spearman)",
      holes,
      "periods=60&step=3&lookback=40&graph_method=tmfg&corr_method=spearman&include_graph=true",
    ],
    ["threshold, include_graph=false", sample, "periods=40&step=5&graph_method=threshold&corr_threshold=0.2&include_graph=false"],
    ["complete, every graph (include_graph=all)", sample, "periods=12&step=10&graph_method=complete&include_graph=all&metrics=pagerank"],
    [
      "ewma with market removal, sorted",
      sample,
      "periods=30&step=4&graph_method=knn&knn_k=3&corr_method=ewma&market_mode=remove&sort=pagerank",
    ],
    ["shrinkage, csv", sample, "periods=25&graph_method=mst&shrinkage=ledoit_wolf&format=csv&include_graph=true"],
    ["a date range", sample, "start=2023-01-01&end=2023-06-30&step=3&graph_method=knn&include_graph=true"],
    ["fewer as-ofs than parts", sample, "periods=3&graph_method=tmfg&include_graph=true"],
    // Issue 26: per-as-of trees, clusters and weights, and turnover across the join.
    [
      "pmfg, kendall, hrp weights with turnover, clusters",
      holes,
      "periods=40&step=3&lookback=40&graph_method=pmfg&corr_method=kendall&weights=hrp&clusters=4&include_graph=true",
    ],
    [
      "distance correlation, every tree (include_graph=all)",
      holes,
      "periods=30&step=5&lookback=30&graph_method=knn&corr_method=distance&hierarchy=ward&clusters=3&include_graph=all",
    ],
    [
      "sliding sums with a signed average tree and inverse-variance weights",
      factorInput(30, 400, 3),
      "periods=100&step=1&lookback=20&graph_method=mst&hierarchy=average&hierarchy_distance=signed&weights=inverse_variance",
    ],
    ["equal weights and a tree, csv", holes, "periods=50&step=2&lookback=30&hierarchy=complete&clusters=5&weights=equal&format=csv"],
    // Signal or noise: filters, spectra, matrices and bootstrap summaries are per as-of; the latest keeps its matrix and reliabilities.
    [
      "denoise, detone, spectrum, matrices and bootstrap (include_graph=all)",
      holes,
      "periods=12&step=4&lookback=30&denoise=mp&detone=1&spectrum=true&include_corr=true&bootstrap=5&seed=9&include_graph=all",
    ],
    [
      "bootstrap with sliding sums, the latest graph only",
      factorInput(20, 200, 5),
      "periods=30&lookback=20&bootstrap=3&graph_method=knn&include_corr=true",
    ],
  ];

  for (const [what, input, q] of cases) {
    test(`${what}: byte for byte the unsplit answer, in 2, 3 and 7 parts`, () => {
      const p = params(q);
      const whole = JSON.stringify(computeChart(input, p));
      for (const of of [2, 3, 7]) expect(split(input, p, of)).toBe(whole);
    });
  }

  test("before rounding, too: every as-of's metric values and graph statistics are bit for bit the unsplit run's", () => {
    // The payload rounds to 6 decimals, which would hide sliding sums that merely drifted.
    for (const [input, q] of [
      [cases[0]![1], cases[0]![2]],
      [holes, "periods=120&step=2&lookback=30&graph_method=complete&include_graph=true"],
      [holes, "periods=60&step=2&lookback=30&graph_method=tmfg&weights=hrp&hierarchy=ward&clusters=5"],
    ] as const) {
      const p = params(q);
      const run = (index: number, of: number) => partResults(input, p, index, of);
      const bits = (rs: ReturnType<typeof run>) =>
        rs.map((r) => ({
          values: Object.values(r.values).map((v) => [...new Uint32Array(v!.buffer)]),
          stats: r.stats,
          weights: r.weights ? [...new Uint32Array(r.weights.buffer)] : null,
          clusters: r.clusters ? [...r.clusters] : null,
        }));
      const whole = bits(run(0, 1));
      for (const of of [2, 3]) expect(bits(Array.from({ length: of }, (_, k) => run(k, of)).flat())).toEqual(whole);
    }
  });

  test("filters that decompose take up to four as-ofs at a time, and every as-of's matrix, spectrum and values are bit for bit its own alone", () => {
    // One as-of per part: nothing to batch with, so each part filters its window alone.
    for (const [input, q, asofs] of [
      [factorInput(24, 200, 7), "periods=21&lookback=40&denoise=mp&spectrum=true&include_corr=true&include_graph=all", 21],
      [holes, "periods=30&step=2&lookback=30&denoise=mp&detone=1&spectrum=true&include_corr=true&include_graph=all", 30],
      [holes, "periods=16&step=3&lookback=30&corr_method=spearman&detone=2&include_corr=true&include_graph=all", 16],
    ] as const) {
      const p = params(q);
      const run = (index: number, of: number) => partResults(input, p, index, of);
      const f64 = (x: Float64Array | null | undefined) => (x ? [...new Uint32Array(Float64Array.from(x).buffer)] : null);
      const bits = (rs: ReturnType<typeof run>) =>
        rs.map((r) => ({
          nodes: r.nodes,
          corr: f64(r.corr),
          spectrum: r.spectrum ? { ...r.spectrum, eigenvalues: f64(r.spectrum.eigenvalues) } : null,
          values: Object.values(r.values).map((v) => f64(v)),
        }));
      const whole = bits(run(0, 1));
      expect(whole.length).toBe(asofs);
      expect(bits(Array.from({ length: asofs }, (_, k) => run(k, asofs)).flat())).toEqual(whole);
    }
  });

  test("refusals are the unsplit ones: too many rows with include_graph=all, too few symbols at every as-of", () => {
    const big = factorInput(130, 200, 9);
    const tooLarge = params("periods=12&lookback=20&graph_method=complete&include_graph=all&metrics=degree_strength");
    const want = outcome(() => JSON.stringify(computeChart(big, tooLarge)));
    expect(want).toContain("include_graph=all returns every as-of's edges");
    for (const of of [2, 5]) expect(outcome(() => split(big, tooLarge, of))).toBe(want);
    // With hierarchy, every as-of's merges count too: edges alone fit here, edges and merges do not.
    const merges = params("periods=160&lookback=20&graph_method=mst&include_graph=all&metrics=degree_strength&hierarchy=single");
    const refusal = outcome(() => JSON.stringify(computeChart(big, merges)));
    expect(refusal).toContain("and hierarchy merges");
    for (const of of [2, 5]) expect(outcome(() => split(big, merges, of))).toBe(refusal);

    const flat = factorInput(3, 200, 2);
    flat.closes[0]!.fill(50);
    flat.closes[1]!.fill(NaN, 100);
    const tooFew = params("periods=20&lookback=30");
    const refused = outcome(() => JSON.stringify(computeChart(flat, tooFew)));
    expect(refused).toContain("at least 2 are needed");
    expect(outcome(() => split(flat, tooFew, 3))).toBe(refused);
  });
});
