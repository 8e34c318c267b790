/**
 * The signal-noise fixtures (bench/networkx/generate_signal_noise_fixtures.py) checked against the
 * engine: the filters within 1e-9 of numpy before rounding, bootstrap edge counts exactly and
 * percentiles within 1e-6. Shared by the unit test (generated panels) and the NIFTY-50 test.
 */
import { expect } from "bun:test";
import { bootstrapWindow, windowCorrelation, type ReplicateParams } from "../../../src/engine/bootstrap.ts";
import { correlationMatrix } from "../../../src/engine/correlation.ts";
import { buildGraph } from "../../../src/engine/graph.ts";
import { filterCorrelation } from "../../../src/engine/random-matrix.ts";
import { METRICS } from "../../../src/engine/types.ts";

export interface FilterExpected {
  spectrum: { eigenvalues: number[]; lambda_plus: number; n_above: number; absorption_ratio: number };
  denoise: number[][];
  detone1: number[][];
  detone2: number[][];
  denoise_detone1: number[][];
}

export interface BootstrapCaseParams {
  corr_method: "pearson" | "spearman";
  denoise: boolean;
  detone: number;
  graph_method: "mst" | "knn" | "threshold";
  knn_k: number;
  threshold: number;
  B: number;
  seed: number;
}

export interface BootstrapExpected {
  first_rows: number[];
  edges: number[][];
  p05: Record<string, (number | null)[]>;
  p95: Record<string, (number | null)[]>;
}

/** Largest |a − b| over two n×n matrices (flat and nested). */
function maxDiff(got: Float64Array, want: number[][]): number {
  const n = want.length;
  let worst = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) worst = Math.max(worst, Math.abs(got[i * n + j] - want[i][j]));
  return worst;
}

/** Checks the spectrum and the filtered matrices of `series` (each L returns); returns the largest difference seen. */
export function checkFilters(series: Float64Array[], L: number, method: "pearson" | "spearman", want: FilterExpected): number {
  const n = series.length;
  const corr = correlationMatrix(series, method, 0, L);
  const spec = filterCorrelation(corr, n, L, { denoise: "none", detone: 0, spectrum: true }).spectrum!;
  let worst = 0;
  want.spectrum.eigenvalues.forEach((v, k) => {
    worst = Math.max(worst, Math.abs(spec.eigenvalues[k] - v));
  });
  expect(spec.nAbove).toBe(want.spectrum.n_above);
  worst = Math.max(
    worst,
    Math.abs(spec.lambdaPlus - want.spectrum.lambda_plus),
    Math.abs(spec.absorptionRatio - want.spectrum.absorption_ratio),
  );
  const cases: [FilterExpected[keyof FilterExpected], "none" | "mp", number][] = [
    [want.denoise, "mp", 0],
    [want.detone1, "none", 1],
    [want.detone2, "none", 2],
    [want.denoise_detone1, "mp", 1],
  ];
  for (const [matrix, denoise, detone] of cases) {
    const got = filterCorrelation(corr, n, L, { denoise, detone, spectrum: false }).corr;
    worst = Math.max(worst, maxDiff(got, matrix as number[][]));
  }
  expect(worst).toBeLessThan(1e-9);
  return worst;
}

export function replicateParams(p: BootstrapCaseParams): ReplicateParams {
  return {
    corr_method: p.corr_method,
    halflife: 20,
    shrinkage: "none",
    market_mode: "keep",
    denoise: p.denoise ? "mp" : "none",
    detone: p.detone,
    graph_method: p.graph_method,
    knn_k: p.knn_k,
    corr_threshold: p.threshold,
    metrics: [...METRICS],
  };
}

/** Runs bootstrapWindow on the window and checks it edge for edge and node for node; returns the largest percentile difference. */
export function checkBootstrap(series: Float64Array[], L: number, p: BootstrapCaseParams, want: BootstrapExpected): number {
  const n = series.length;
  const rp = replicateParams(p);
  const g = buildGraph(windowCorrelation(series, 0, L, rp), n, rp.graph_method, { knnK: rp.knn_k, threshold: rp.corr_threshold });
  const got = bootstrapWindow(series, 0, L, rp, { graph: g, community: null }, p.B, p.seed);
  const edges = Array.from(g.src, (s, e) => [Math.min(s, g.dst[e]), Math.max(s, g.dst[e]), Math.round(got.reliability[e] * p.B)]);
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  expect(edges).toEqual(want.edges);
  // The share is the count over B, as a client divides it.
  const count = new Map(want.edges.map(([i, j, c]) => [`${i}|${j}`, c!]));
  for (let e = 0; e < g.src.length; e++) {
    const key = `${Math.min(g.src[e], g.dst[e])}|${Math.max(g.src[e], g.dst[e])}`;
    expect(got.reliability[e]).toBe(count.get(key)! / p.B);
  }
  let worst = 0;
  for (const m of METRICS) {
    for (const [mine, theirs] of [
      [got.p05[m]!, want.p05[m]],
      [got.p95[m]!, want.p95[m]],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const w = theirs[i];
        if (w === null) expect(Number.isNaN(mine[i])).toBe(true);
        else worst = Math.max(worst, Math.abs(mine[i] - w));
      }
    }
  }
  expect(worst).toBeLessThan(1e-6);
  return worst;
}
