/**
 * bootstrap.ts and splitmix64.ts on small panels: the row draws are SplitMix64's (against a BigInt
 * transcription), and the summaries behave as defined (numpy's and networkx's values:
 * signal-noise-golden.test.ts).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { factorReturns } from "../../test/support/engine/random-returns.ts";
import { adjustedRandIndex } from "./sector-agreement.ts";
import { bootstrapWindow, percentileLinear, replicateRows, type ReplicateParams, windowCorrelation } from "./bootstrap.ts";
import { buildGraph } from "./graph.ts";
import { louvain } from "./louvain.ts";
import { computeMetrics } from "./metrics/index.ts";
import { SplitMix64 } from "./splitmix64.ts";
import { METRICS } from "./types.ts";

/** SplitMix64 on BigInt, as written in the paper. */
function bigSplitMix(state: bigint, count: number): bigint[] {
  const mask = (1n << 64n) - 1n;
  const out: bigint[] = [];
  for (let k = 0; k < count; k++) {
    state = (state + 0x9e3779b97f4a7c15n) & mask;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
    out.push(z ^ (z >> 31n));
  }
  return out;
}

const P: ReplicateParams = {
  corr_method: "pearson",
  halflife: 20,
  shrinkage: "none",
  market_mode: "keep",
  denoise: "none",
  detone: 0,
  graph_method: "mst",
  knn_k: 4,
  corr_threshold: 0.5,
  metrics: [...METRICS],
};

function answer(series: Float64Array[], L: number, p: ReplicateParams) {
  const g = buildGraph(windowCorrelation(series, 0, L, p), series.length, p.graph_method, { knnK: p.knn_k, threshold: p.corr_threshold });
  return { graph: g, community: louvain(g).community };
}

describe("SplitMix64", () => {
  test("the 32-bit halves give the 64-bit generator's outputs", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (hi, lo) => {
        const want = bigSplitMix((BigInt(hi) << 32n) | BigInt(lo), 8);
        const rng = new SplitMix64(hi, lo);
        for (const w of want) {
          rng.next();
          expect((BigInt(rng.outHi) << 32n) | BigInt(rng.outLo)).toBe(w);
        }
      }),
      { numRuns: 200 },
    );
  });

  test("a row is ⌊((x >>> 11)·2⁻⁵³)·L⌋ of the state seed·2³² + b", () => {
    const [x] = bigSplitMix((7n << 32n) + 3n, 1);
    expect(replicateRows(7, 3, 60)[0]).toBe(Math.floor(Number(x >> 11n) * 2 ** -53 * 60));
    for (const j of replicateRows(2 ** 32 - 1, 999, 500)) expect(j >= 0 && j < 500).toBe(true);
  });
});

describe("bootstrapWindow", () => {
  const L = 40;
  const series = factorReturns(12, L, 5);

  test("reliability in [0, 1], a multiple of 1/B; p05 ≤ p95; stability in [−1, 1] (any method, seed, B)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("mst" as const, "knn" as const, "threshold" as const, "tmfg" as const),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        (method, B, seed) => {
          const p = { ...P, graph_method: method, corr_threshold: 0.2 };
          const a = answer(series, L, p);
          const r = bootstrapWindow(series, 0, L, p, a, B, seed);
          expect(r.reliability.length).toBe(a.graph.src.length);
          for (const x of r.reliability) {
            expect(x >= 0 && x <= 1).toBe(true);
            expect(Math.abs(x * B - Math.round(x * B))).toBeLessThan(1e-9);
          }
          for (const m of METRICS) for (let i = 0; i < 12; i++) expect(r.p05[m]![i]).toBeLessThanOrEqual(r.p95[m]![i]);
          expect(r.communityStability! >= -1 && r.communityStability! <= 1).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });

  test("B = 1 is the one resample: edges held are its graph's, percentiles its values, stability its ARI", () => {
    const a = answer(series, L, P);
    const r = bootstrapWindow(series, 0, L, P, a, 1, 42);
    const rows = replicateRows(42, 0, L);
    const resampled = series.map((s) => Float64Array.from(rows, (j) => s[j]));
    const g = buildGraph(windowCorrelation(resampled, 0, L, P), 12, "mst", { knnK: 4, threshold: 0.5 });
    const inG = new Set(Array.from(g.src, (s, e) => `${s}|${g.dst[e]}`));
    a.graph.src.forEach((s, e) => expect(r.reliability[e]).toBe(inG.has(`${s}|${a.graph.dst[e]}`) ? 1 : 0));
    const m = computeMetrics(g, P.metrics);
    for (const metric of METRICS) {
      expect(Array.from(r.p05[metric]!)).toEqual(Array.from(m.values[metric]!));
      expect(Array.from(r.p95[metric]!)).toEqual(Array.from(m.values[metric]!));
    }
    expect(r.communityStability).toBe(adjustedRandIndex(a.community, louvain(g).community));
  });

  test("the same seed gives the same answer, another seed another", () => {
    const a = answer(series, L, P);
    const one = bootstrapWindow(series, 0, L, P, a, 20, 1);
    expect(bootstrapWindow(series, 0, L, P, a, 20, 1)).toEqual(one);
    const other = bootstrapWindow(series, 0, L, P, a, 20, 2);
    expect(Array.from(other.p05.betweenness_centrality!)).not.toEqual(Array.from(one.p05.betweenness_centrality!));
  });

  test("a resample with a constant series: ρ = 0 with the others, the answer stays defined", () => {
    const flat = [...series.slice(0, 4), Float64Array.from({ length: L }, (_, k) => (k === 0 ? 0.01 : 0))];
    const p = { ...P, metrics: ["degree_strength" as const] };
    const r = bootstrapWindow(flat, 0, L, p, answer(flat, L, p), 30, 3);
    for (const x of r.p05.degree_strength!) expect(Number.isFinite(x)).toBe(true);
  });
});

test("numpy's linear percentile", () => {
  const x = Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  expect(percentileLinear(x, 0.05)).toBeCloseTo(1.45, 14);
  expect(percentileLinear(x, 0.95)).toBeCloseTo(9.55, 14);
  expect(percentileLinear(Float64Array.of(3), 0.05)).toBe(3);
  expect(Number.isNaN(percentileLinear(new Float64Array(0), 0.5))).toBe(true);
});

test("adjusted Rand index: 1 for equal partitions up to relabelling, 0 in expectation for unrelated ones", () => {
  expect(adjustedRandIndex(Int32Array.of(0, 0, 1, 1, 2), Int32Array.of(2, 2, 0, 0, 1))).toBe(1);
  expect(adjustedRandIndex(Int32Array.of(0, 0, 0), Int32Array.of(0, 1, 2))).toBe(0);
});
