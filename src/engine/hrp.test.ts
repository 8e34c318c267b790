/**
 * HRP and baseline weights: properties on random covariances (fast-check) — non-negative, summing
 * to 1, equivariant under relabelling, inverse-variance on a diagonal covariance — and turnover.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { factorReturns } from "../../test/support/engine/random-returns.ts";
import { correlationMatrix } from "./correlation.ts";
import { correlationDistance, LINKAGE_METHODS, leafOrder, linkage, type LinkageMethod } from "./hierarchy.ts";
import { equalWeights, hrpWeights, inverseVarianceWeights, sampleCovariance, turnover, turnoverAligned } from "./hrp.ts";

function randomCase(n: number, seed: number, method: LinkageMethod, signed: boolean) {
  const rets = factorReturns(n, 40, seed);
  const cov = sampleCovariance(rets, 0, 40);
  const corr = correlationMatrix(rets, "pearson");
  const order = leafOrder(linkage(correlationDistance(corr, n, signed), n, method), n);
  return { cov, order };
}

const sum = (w: Float64Array) => w.reduce((a, b) => a + b, 0);

const caseArb = fc.record({
  n: fc.integer({ min: 1, max: 60 }),
  seed: fc.integer({ min: 1, max: 1e6 }),
  signed: fc.boolean(),
  method: fc.constantFrom(...LINKAGE_METHODS),
});

describe("portfolio weights", () => {
  test("property: HRP, inverse-variance and equal weights are non-negative and sum to 1 within 1e-12", () => {
    fc.assert(
      fc.property(caseArb, ({ n, seed, signed, method }) => {
        const { cov, order } = randomCase(n, seed, method as LinkageMethod, signed);
        for (const w of [hrpWeights(cov, n, order), inverseVarianceWeights(cov, n), equalWeights(n)]) {
          expect(w.length).toBe(n);
          for (const x of w) expect(x).toBeGreaterThanOrEqual(0);
          expect(Math.abs(sum(w) - 1)).toBeLessThanOrEqual(1e-12);
        }
      }),
      { numRuns: 150 },
    );
  });

  test("property: relabelling the assets relabels the HRP weights, bit for bit", () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 0, max: 1e6 }), ({ n, seed, signed, method }, pseed) => {
        const { cov, order } = randomCase(n, seed, method as LinkageMethod, signed);
        // New asset q is old asset perm[q]; the same quasi-diagonal order, in new labels.
        const perm = Array.from({ length: n }, (_, i) => i);
        let s = pseed;
        for (let i = n - 1; i > 0; i--) {
          s = (s * 1103515245 + 12345) % 2147483648;
          const j = s % (i + 1);
          [perm[i], perm[j]] = [perm[j], perm[i]];
        }
        const inv = new Int32Array(n);
        perm.forEach((old, q) => {
          inv[old] = q;
        });
        const pcov = Float64Array.from({ length: n * n }, (_, q) => cov[perm[Math.floor(q / n)] * n + perm[q % n]]);
        const porder = Int32Array.from(order, (old) => inv[old]);
        const w = hrpWeights(cov, n, order);
        const pw = hrpWeights(pcov, n, porder);
        for (let q = 0; q < n; q++) expect(pw[q]).toBe(w[perm[q]]);
      }),
      { numRuns: 150 },
    );
  });

  test("property: on a diagonal covariance HRP is the inverse-variance portfolio, whatever the order", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 1e-6, max: 10, noNaN: true }), { minLength: 1, maxLength: 40 }), fc.integer(), (vars, seed) => {
        const n = vars.length;
        const cov = new Float64Array(n * n);
        vars.forEach((v, i) => {
          cov[i * n + i] = v;
        });
        const order = Int32Array.from({ length: n }, (_, i) => i).sort(
          (a, b) => ((a * 7919 + seed) % 97) - ((b * 7919 + seed) % 97) || a - b,
        );
        const hrp = hrpWeights(cov, n, order);
        const ivp = inverseVarianceWeights(cov, n);
        for (let i = 0; i < n; i++) expect(Math.abs(hrp[i] - ivp[i])).toBeLessThan(1e-12);
      }),
      { numRuns: 150 },
    );
  });

  test("two assets: HRP is inverse-variance; one asset weighs 1", () => {
    const cov = Float64Array.of(4, 1, 1, 1);
    const hrp = hrpWeights(cov, 2, Int32Array.of(1, 0));
    const ivp = inverseVarianceWeights(cov, 2);
    for (const w of [hrp, ivp]) {
      expect(w[0]).toBeCloseTo(0.2, 15);
      expect(w[1]).toBeCloseTo(0.8, 15);
    }
    expect(Array.from(hrpWeights(Float64Array.of(3), 1, Int32Array.of(0)))).toEqual([1]);
    expect(hrpWeights(new Float64Array(0), 0, new Int32Array(0)).length).toBe(0);
  });

  test("the bisection splits the order list, first half ⌊len/2⌋ items", () => {
    // Three uncorrelated assets of variance 1 in order [2, 0, 1]: {2} vs {0, 1} gets α = 1 − 1/(1 + 1/2) = 1/3.
    const cov = Float64Array.of(1, 0, 0, 0, 1, 0, 0, 0, 1);
    const w = hrpWeights(cov, 3, Int32Array.of(2, 0, 1));
    expect(w[2]).toBeCloseTo(1 / 3, 15);
    expect(w[0]).toBeCloseTo(1 / 3, 15);
    // Correlated 0 and 1 (cov 0.5): V({0,1}) = 0.75, so α = 1 − 1/1.75 and {2} keeps 3/7.
    const cor = Float64Array.of(1, 0.5, 0, 0.5, 1, 0, 0, 0, 1);
    const v = hrpWeights(cor, 3, Int32Array.of(2, 0, 1));
    expect(v[2]).toBeCloseTo(1 - 1 / 1.75, 15);
    expect(v[0]).toBeCloseTo(1 / 1.75 / 2, 15);
  });

  test("rejects a zero or non-finite variance", () => {
    expect(() => hrpWeights(Float64Array.of(1, 0, 0, 0), 2, Int32Array.of(0, 1))).toThrow(RangeError);
    expect(() => inverseVarianceWeights(Float64Array.of(Number.NaN), 1)).toThrow(RangeError);
    expect(() => hrpWeights(Float64Array.of(1), 1, Int32Array.of(0, 1))).toThrow(RangeError);
  });

  test("sampleCovariance: divisor L − 1 over the window", () => {
    const a = Float64Array.of(9, 1, 2, 3, 9);
    const b = Float64Array.of(9, 2, 4, 7, 9);
    const c = sampleCovariance([a, b], 1, 3);
    expect(Array.from(c)).toEqual([1, 2.5, 2.5, 6.333333333333333]);
  });
});

describe("turnover", () => {
  test("½ Σ|Δw|: 0 for no change, 1 for a full switch", () => {
    const w = Float64Array.of(0.5, 0.3, 0.2);
    expect(turnover(w, w)).toBe(0);
    expect(turnover(Float64Array.of(1, 0), Float64Array.of(0, 1))).toBe(1);
    expect(turnover(w, Float64Array.of(0.4, 0.4, 0.2))).toBeCloseTo(0.1, 15);
    expect(() => turnover(w, Float64Array.of(1))).toThrow(RangeError);
  });

  test("property: symmetric, in [0, 1] between portfolios, aligned = plain on equal symbol lists", () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 1, max: 1e6 }), ({ n, seed, signed, method }, seed2) => {
        const a = randomCase(n, seed, method as LinkageMethod, signed);
        const b = randomCase(n, seed2, method as LinkageMethod, signed);
        const wa = hrpWeights(a.cov, n, a.order);
        const wb = hrpWeights(b.cov, n, b.order);
        const t = turnover(wa, wb);
        expect(t).toBe(turnover(wb, wa));
        expect(t).toBeGreaterThanOrEqual(0);
        expect(t).toBeLessThanOrEqual(1 + 1e-12);
        const nodes = Array.from({ length: n }, (_, i) => 3 * i);
        expect(turnoverAligned(nodes, wa, nodes, wb)).toBe(t);
      }),
      { numRuns: 100 },
    );
  });

  test("aligned: a symbol leaving sells its weight, one entering buys it", () => {
    // Symbols 1, 4 then 4, 7: sell 0.5 of 1, buy 0.25 of 7, 4 moves 0.5 → 0.75.
    const t = turnoverAligned([1, 4], Float64Array.of(0.5, 0.5), [4, 7], Float64Array.of(0.75, 0.25));
    expect(t).toBeCloseTo(0.5, 15);
  });
});
