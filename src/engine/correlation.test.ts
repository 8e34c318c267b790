import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { averageRanks, correlationMatrix, pearsonFromMoments } from "./correlation.ts";
import { describeNifty, loadNifty } from "../../test/support/nifty.ts";
import { sampleSeriesInput } from "../market/sample-series.ts";
import { factorReturns } from "../../test/support/engine/random-returns.ts";
import { dotWorkspace, hasDotKernel, MAX_KERNEL_BYTES, tileColumns } from "./simd/dot-kernel.ts";
import type { SeriesInput } from "./types.ts";

/** Log returns of every symbol over the last `lookback` bars. */
function lastReturns(input: SeriesInput, lookback: number): Float64Array[] {
  const t = input.labels.length - 1;
  return input.closes.map((c) =>
    Float64Array.from({ length: lookback }, (_, k) => Math.log(c[t - lookback + k + 1] / c[t - lookback + k])),
  );
}

function expectMomentsEqualDirect(input: SeriesInput): void {
  for (const lookback of [60, 250]) {
    const series = lastReturns(input, lookback);
    const n = series.length;
    const s = new Float64Array(n);
    const ss = new Float64Array(n);
    const sxy = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let k = 0; k < lookback; k++) {
        s[i] += series[i][k];
        ss[i] += series[i][k] ** 2;
        for (let j = i + 1; j < n; j++) sxy[i * n + j] += series[i][k] * series[j][k];
      }
    const fromMoments = pearsonFromMoments(lookback, s, ss, sxy, n);
    const direct = correlationMatrix(series, "pearson");
    let worst = 0;
    for (let q = 0; q < n * n; q++) worst = Math.max(worst, Math.abs(fromMoments[q] - direct[q]));
    expect(worst).toBeLessThan(1e-12);
  }
}

describe("pearsonFromMoments", () => {
  test("equals correlationMatrix(..., 'pearson') within 1e-12 on the synthetic sample (60 and 250 bars)", () => {
    expectMomentsEqualDirect(sampleSeriesInput());
  });
});

describeNifty("pearsonFromMoments on real data", () => {
  test("equals correlationMatrix(..., 'pearson') within 1e-12 on the NIFTY 50 (60 and 250 bars)", () => {
    expectMomentsEqualDirect(loadNifty());
  });
});

describe("correlationMatrix", () => {
  test("is symmetric with unit diagonal and values in [-1, 1]", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 10 }),
        fc.integer({ min: 3, max: 40 }),
        fc.integer(),
        fc.constantFrom("pearson", "spearman" as const),
        (n, L, seed, method) => {
          const c = correlationMatrix(factorReturns(n, L, seed), method);
          for (let i = 0; i < n; i++) {
            expect(c[i * n + i]).toBe(1);
            for (let j = 0; j < n; j++) {
              expect(c[i * n + j]).toBe(c[j * n + i]);
              expect(Math.abs(c[i * n + j])).toBeLessThanOrEqual(1);
            }
          }
        },
      ),
    );
  });

  test("identical series correlate exactly 1, rank-reversed series exactly -1 under spearman", () => {
    const [a, b] = factorReturns(2, 30, 7);
    const p = correlationMatrix([a, a.slice(), b], "pearson");
    expect(p[1]).toBe(1);
    expect(p[2]).toBe(p[5]);
    const s = correlationMatrix([a, a.map((v) => -v), b], "spearman");
    expect(s[1]).toBe(-1);
    expect(s[2]).toBe(-s[5]);
  });

  test("spearman equals pearson of average ranks; ranks of ties are their mean position", () => {
    const x = Float64Array.from([3, 1, 3, 2, 3]);
    const r = averageRanks(x);
    // Brute force: rank = (#smaller) + (#equal + 1) / 2.
    x.forEach((v, k) => {
      const smaller = x.filter((u) => u < v).length;
      const equal = x.filter((u) => u === v).length;
      expect(r[k]).toBe(smaller + (equal + 1) / 2);
    });
    const [a, b] = factorReturns(2, 25, 3);
    const viaRanks = correlationMatrix([averageRanks(a), averageRanks(b)], "pearson");
    expect(correlationMatrix([a, b], "spearman")[1]).toBeCloseTo(viaRanks[1], 14);
  });
});

test("a window given by start and length equals the same window as subarrays, bit for bit", () => {
  const series = factorReturns(12, 90, 5);
  for (const method of ["pearson", "spearman"] as const) {
    for (const [start, length] of [
      [0, 90],
      [10, 60],
      [29, 61],
      [88, 2],
    ] as const) {
      const views = series.map((s) => s.subarray(start, start + length));
      expect([...correlationMatrix(series, method, start, length)]).toEqual([...correlationMatrix(views, method)]);
    }
  }
});

describe("the WebAssembly dot-product kernel (simd/dot-kernel.ts)", () => {
  test("runs here, so the comparison below compares two implementations", () => {
    expect(hasDotKernel).toBe(true);
    expect(dotWorkspace(50, 60)).not.toBeNull();
  });

  test("gives matrices bit-identical to the scalar loops, ties and negations included", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 41 }),
        fc.integer({ min: 2, max: 90 }),
        fc.integer(),
        fc.constantFrom("pearson", "spearman" as const),
        (n, L, seed, method) => {
          const series = factorReturns(n, L, seed);
          // Exact ties: a copy and a negation of the first series.
          if (n >= 3) {
            series[1] = series[0].slice();
            series[2] = series[0].map((v) => -v);
          }
          const simd = correlationMatrix(series, method, 0, L, true);
          const scalar = correlationMatrix(series, method, 0, L, false);
          for (let q = 0; q < n * n; q++) expect(Object.is(simd[q], scalar[q])).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("grows its memory for a large matrix and stays exact for small ones after it, across column tiles", () => {
    // 300 × 252 and 200 × 300: several tiles of 32 and 24 columns; 37 × 1,100: tiles of 8, odd n.
    expect([tileColumns(252), tileColumns(300), tileColumns(1100)]).toEqual([32, 24, 8]);
    for (const [n, L] of [
      [300, 252],
      [200, 300],
      [37, 1100],
      [9, 20],
    ] as const) {
      const series = factorReturns(n, L, n);
      const simd = correlationMatrix(series, "pearson", 0, L, true);
      const scalar = correlationMatrix(series, "pearson", 0, L, false);
      expect([...simd]).toEqual([...scalar]);
    }
  });

  test("declines workspaces above MAX_KERNEL_BYTES (the scalar loops take those)", () => {
    const [n, L] = [3000, 1000];
    expect(8 * (n * L + n * n)).toBeGreaterThan(MAX_KERNEL_BYTES);
    expect(dotWorkspace(n, L) === null).toBe(true);
  });
});
