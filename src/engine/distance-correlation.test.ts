/**
 * Distance correlation (Gram of double-centred distance matrices) against the paper's formula
 * written out per pair, on every dot-product path (OpenBLAS where it loads, the WebAssembly kernel,
 * scalar loops, and the column blocks past MAX_DISTANCE_BYTES), plus its invariances.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { factorReturns } from "../../test/support/engine/random-returns.ts";
import { distanceCorrelationMatrix, MAX_DISTANCE_BYTES } from "./distance-correlation.ts";

/** Székely–Rizzo–Bakirov V-statistic, literally: full L×L matrices A, B; dCov² = mean(A∘B). */
function literalDcor(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const L = x.length;
  const centred = (z: ArrayLike<number>) => {
    const a = Array.from({ length: L }, (_, k) => Array.from({ length: L }, (_, l) => Math.abs(z[k] - z[l])));
    const row = a.map((r) => r.reduce((s, v) => s + v, 0) / L);
    const grand = row.reduce((s, v) => s + v, 0) / L;
    return a.map((r, k) => r.map((v, l) => v - row[k] - row[l] + grand));
  };
  const A = centred(x);
  const B = centred(y);
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let k = 0; k < L; k++)
    for (let l = 0; l < L; l++) {
      ab += A[k][l] * B[k][l];
      aa += A[k][l] * A[k][l];
      bb += B[k][l] * B[k][l];
    }
  return aa * bb === 0 ? 0 : Math.sqrt(Math.max(0, ab) / Math.sqrt(aa * bb));
}

describe("distance correlation", () => {
  test("property: the literal formula within 1e-12 on every kernel, in [0, 1], unit diagonal", () => {
    const panel = fc.integer({ min: 1, max: 40 }).chain((L) =>
      // Returns-like magnitudes (subnormal inputs would underflow both sides' sums differently).
      fc.array(
        fc.array(
          fc.oneof(
            fc.integer({ min: -2, max: 2 }),
            fc.integer({ min: -1e6, max: 1e6 }).map((v) => v / 1e7),
          ),
          { minLength: L, maxLength: L },
        ),
        {
          minLength: 1,
          maxLength: 6,
        },
      ),
    );
    fc.assert(
      fc.property(panel, (values) => {
        const n = values.length;
        const s = values.map((v) => Float64Array.from(v));
        for (const kernel of ["blas", "simd", "scalar"] as const) {
          const got = distanceCorrelationMatrix(s, 0, values[0].length, kernel);
          for (let i = 0; i < n; i++) {
            expect(got[i * n + i]).toBe(1);
            for (let j = i + 1; j < n; j++) {
              const r = got[i * n + j];
              expect(r).toBe(got[j * n + i]);
              expect(r >= 0 && r <= 1).toBe(true);
              expect(Math.abs(r - literalDcor(values[i], values[j]))).toBeLessThan(1e-12);
            }
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  test("duplicated and negated series give exactly 1, shifted and scaled ones 1 within rounding, a constant one 0", () => {
    const [x, y] = factorReturns(2, 60, 4);
    const s = [x, x.slice(), x.map((v) => -v), x.map((v) => v + 0.5), x.map((v) => 3 * v), new Float64Array(60).fill(0.01), y];
    for (const kernel of ["blas", "simd", "scalar"] as const) {
      const c = distanceCorrelationMatrix(s, 0, 60, kernel);
      expect(c[1]).toBe(1);
      expect(c[2]).toBe(1);
      expect(Math.abs(c[3] - 1)).toBeLessThan(1e-12);
      expect(Math.abs(c[4] - 1)).toBeLessThan(1e-12);
      for (let j = 0; j < 7; j++) if (j !== 5) expect(c[5 * 7 + j]).toBe(0);
      expect(c[5 * 7 + 5]).toBe(1);
      expect(c[6]).toBeGreaterThan(0);
      expect(c[6]).toBeLessThan(1);
    }
  });

  test("start/length read the window only; the kernels agree within 1e-13 on a 50 × 250 panel", () => {
    const s = factorReturns(50, 300, 8);
    const ref = distanceCorrelationMatrix(s, 30, 250, "scalar");
    expect(
      distanceCorrelationMatrix(
        s.map((x) => x.slice(30, 280)),
        0,
        250,
        "scalar",
      ),
    ).toEqual(ref);
    for (const kernel of ["blas", "simd"] as const) {
      const got = distanceCorrelationMatrix(s, 30, 250, kernel);
      let worst = 0;
      for (let q = 0; q < ref.length; q++) worst = Math.max(worst, Math.abs(got[q] - ref[q]));
      expect(worst).toBeLessThan(1e-13);
    }
  });

  test("past MAX_DISTANCE_BYTES the column blocks give the same matrix", () => {
    // 520 returns: 1 MB of centred distances per series, so about 60 series pass MAX_DISTANCE_BYTES.
    const L = 520;
    const n = Math.ceil(MAX_DISTANCE_BYTES / ((8 * L * (L + 1)) / 2)) + 2;
    const s = factorReturns(n, L, 12);
    const got = distanceCorrelationMatrix(s, 0, L, "scalar");
    for (const [i, j] of [
      [0, 1],
      [3, n - 1],
      [n - 2, n - 1],
      [10, 40],
    ])
      expect(Math.abs(got[i * n + j] - literalDcor(s[i], s[j]))).toBeLessThan(1e-12);
  }, 60000);
});
