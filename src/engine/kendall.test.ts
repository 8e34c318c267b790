/**
 * Kendall τ-b (Knight's merge-sort count) against the plain O(L²) definition on random, tied and
 * degenerate series (fast-check), and its invariances.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { factorReturns } from "../../test/support/engine/random-returns.ts";
import { kendallMatrix } from "./kendall.ts";

/** τ-b by the definition: Σ sign(Δx)·sign(Δy) / √((pairs − x ties)(pairs − y ties)); 0 if undefined. */
function naiveTauB(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const L = x.length;
  let s = 0;
  let tx = 0;
  let ty = 0;
  for (let k = 0; k < L; k++)
    for (let l = k + 1; l < L; l++) {
      s += Math.sign(x[k] - x[l]) * Math.sign(y[k] - y[l]);
      if (x[k] === x[l]) tx++;
      if (y[k] === y[l]) ty++;
    }
  const tot = (L * (L - 1)) / 2;
  return tx === tot || ty === tot ? 0 : s / Math.sqrt(tot - tx) / Math.sqrt(tot - ty);
}

const series = (values: number[][]) => values.map((v) => Float64Array.from(v));

describe("Kendall tau-b", () => {
  test("property: equals the O(L²) definition within 1e-12, symmetric, unit diagonal", () => {
    // Small integer values give many ties in x, in y and jointly.
    const panel = fc.integer({ min: 1, max: 60 }).chain((L) =>
      fc.array(
        fc.array(fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double({ min: -1, max: 1, noNaN: true })), { minLength: L, maxLength: L }),
        {
          minLength: 1,
          maxLength: 7,
        },
      ),
    );
    fc.assert(
      fc.property(panel, (values) => {
        const n = values.length;
        const got = kendallMatrix(series(values));
        for (let i = 0; i < n; i++) {
          expect(got[i * n + i]).toBe(1);
          for (let j = i + 1; j < n; j++) {
            expect(got[i * n + j]).toBe(got[j * n + i]);
            expect(Math.abs(got[i * n + j] - naiveTauB(values[i], values[j]))).toBeLessThan(1e-12);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  test("start/length read the window only", () => {
    const s = factorReturns(6, 80, 3);
    const whole = kendallMatrix(s.map((x) => x.slice(20, 70)));
    expect(kendallMatrix(s, 20, 50)).toEqual(whole);
  });

  test("monotone transforms change nothing; reversal flips the sign; identical series give 1", () => {
    const [x, y] = factorReturns(2, 100, 9);
    const base = kendallMatrix([x, y])[1];
    expect(kendallMatrix([x.map((v) => Math.exp(v)), y.map((v) => v * v * v)])[1]).toBe(base);
    expect(kendallMatrix([x.map((v) => -v), y])[1]).toBe(-base);
    expect(kendallMatrix([x, x.slice()])[1]).toBe(1);
    expect(kendallMatrix([x, x.map((v) => -2 * v)])[1]).toBe(-1);
  });

  test("a constant series gives 0 against every other (scipy: nan), and short windows are defined", () => {
    const c = kendallMatrix(
      series([
        [1, 2, 3, 4],
        [5, 5, 5, 5],
        [4, 1, 3, 2],
      ]),
    );
    expect(Array.from(c)).toEqual([1, 0, c[2], 0, 1, 0, c[2], 0, 1]);
    expect(kendallMatrix(series([[1], [2]]))[1]).toBe(0);
    expect(
      kendallMatrix(
        series([
          [1, 2],
          [3, 1],
        ]),
      )[1],
    ).toBe(-1);
    expect(kendallMatrix([])).toEqual(new Float64Array(0));
  });
});
