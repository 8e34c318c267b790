/**
 * Where the random-matrix filters' time goes per as-of: each stage of filterCorrelation timed alone
 * on the 30 unfiltered NIFTY-50 matrices of the rolling request signal-noise.bench.ts measures
 * (lookback 60, as the response gives them with include_corr=true). The stages take turns in rounds;
 * each figure is the median over rounds of the mean per matrix. signal-noise.bench.ts prints them.
 */
import { computeChart } from "../src/engine/chart.ts";
import { qlEigenvalues, qlEigenvaluesBatch } from "../src/engine/ql-eigenvalues.ts";
import { aboveEdge, denoiseMp, filterCorrelation, filterCorrelationBatch } from "../src/engine/random-matrix.ts";
import { tridiagonalise, topEigen, topEigenBatch } from "../src/engine/top-eigen.ts";
import type { RollingData, SeriesInput, SnapshotData } from "../src/engine/types.ts";
import { chartParams } from "./engine-params.ts";
import { median } from "./median.ts";

export interface FilterStage {
  stage: string;
  /** Median µs per matrix. */
  us: number;
}

/** The unfiltered matrices of the 30 as-ofs ending at `asof`, one snapshot each (a response holds at most 50,000 cells). */
function windows(nifty: SeriesInput, asof: string): { n: number; L: number; mats: Float64Array[] } {
  const rolling = computeChart(nifty, chartParams(`asof=${asof}&periods=30&lookback=60&include_graph=all`)).data as RollingData;
  const mats = (rolling.graphs ?? []).map((g) => {
    const snap = computeChart(nifty, chartParams(`asof=${g.asof_date.slice(0, 10)}&lookback=60&include_corr=true`)).data as SnapshotData;
    return Float64Array.from(snap.graph!.corr_matrix!.matrix.flat());
  });
  return { n: Math.round(Math.sqrt(mats[0]!.length)), L: 60, mats };
}

export function filterStages(nifty: SeriesInput, asof: string, rounds = 21): FilterStage[] {
  const { n, L, mats } = windows(nifty, asof);
  const tri = mats.map((c) => {
    const t = tridiagonalise(c, n);
    return { d: Float64Array.from(t.d), e: Float64Array.from(t.e) };
  });
  const eig = mats.map((c) => {
    const e = topEigen(c, n, (v) => aboveEdge(v, n, L));
    return { values: Float64Array.from(e.values), vectors: Float64Array.from(e.vectors) };
  });
  const filters = { denoise: "mp" as const, detone: 0, spectrum: true };
  const scratch = new Float64Array(n * n);
  const k = (v: Float64Array) => aboveEdge(v, n, L);
  // The engine takes the windows four at a time (chart.ts): a batch stage runs on windows i … i + 3
  // when i is a multiple of 4, so that its time per matrix is comparable with the others'.
  const four = <T>(i: number, f: (from: number) => T) => (i % 4 === 0 && i + 4 <= mats.length ? f(i) : undefined);
  const stages: [string, (i: number) => unknown, batch?: true][] = [
    ["Householder tridiagonalisation (SIMD kernel)", (i) => tridiagonalise(mats[i], n)],
    ["every eigenvalue (rational QL), one tridiagonal", (i) => qlEigenvalues(tri[i].d, tri[i].e, n)],
    [
      "every eigenvalue, four tridiagonals side by side (QL kernel)",
      (i) => four(i, (f) => qlEigenvaluesBatch(tri.slice(f, f + 4), n)),
      true,
    ],
    ["the whole decomposition (the above, the vectors above λ₊), one window", (i) => topEigen(mats[i], n, k)],
    ["the whole decomposition, four windows at a time", (i) => four(i, (f) => topEigenBatch(mats.slice(f, f + 4), n, k)), true],
    ["the denoised matrix rebuilt (SIMD kernel, over a matrix in hand)", (i) => denoiseMp(eig[i], n, L, scratch)],
    ["filterCorrelation, denoise=mp&spectrum=true, one window", (i) => filterCorrelation(mats[i], n, L, filters)],
    [
      "the same, four windows at a time, as the engine runs it",
      (i) => four(i, (f) => filterCorrelationBatch(mats.slice(f, f + 4), n, L, filters)),
      true,
    ],
  ];
  // Per matrix: a batch stage's calls cover 28 of the 30 windows (seven batches of four).
  const covered = (s: number) => (stages[s][2] ? 28 / mats.length : 1);
  const each = (f: (i: number) => unknown, reps: number) => {
    const t0 = performance.now();
    for (let r = 0; r < reps; r++) for (let i = 0; i < mats.length; i++) f(i);
    return ((performance.now() - t0) * 1000) / (reps * mats.length);
  };
  for (const [, f] of stages) each(f, 50);
  const times = stages.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) stages.forEach(([, f], s) => times[s].push(each(f, 20)));
  return stages.map(([stage], s) => ({ stage, us: median(times[s]) / covered(s) }));
}
