/**
 * The eigen-decompositions and the random-matrix filters on small panels: the two decompositions
 * agree, the filters keep a unit diagonal, symmetry and [−1, 1], and do what their definitions say
 * (numpy's values are in signal-noise-golden.test.ts).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { factorReturns, noiseReturns } from "../../test/support/engine/random-returns.ts";
import { correlationMatrix } from "./correlation.ts";
import { denoiseMp, filterCorrelation, filterCorrelationBatch, marchenkoPasturEdge, spectrumOf } from "./random-matrix.ts";
import { symmetricEigen } from "../../test/support/engine/symmetric-eigen.ts";
import { topEigen, topEigenBatch } from "./top-eigen.ts";

const corrOf = (n: number, L: number, seed: number, noise = false) =>
  correlationMatrix(noise ? noiseReturns(n, L, seed) : factorReturns(n, L, seed), "pearson", 0, L);

function residual(a: Float64Array, n: number, value: number, v: Float64Array): number {
  let worst = 0;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += a[i * n + j] * v[j];
    worst = Math.max(worst, Math.abs(s - value * v[i]));
  }
  return worst;
}

describe("symmetric eigen-decompositions", () => {
  test("full and leading-k agree; A v = λ v; values descending and summing to the trace", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 3, max: 50 }), fc.integer({ min: 0, max: 1e6 }), (n, L, seed) => {
        const a = corrOf(n, L, seed);
        const full = symmetricEigen(a, n);
        const top = topEigen(a, n, Math.min(3, n));
        let sum = 0;
        for (let k = 0; k < n; k++) {
          sum += full.values[k];
          expect(Math.abs(full.values[k] - top.values[k])).toBeLessThan(1e-12);
          if (k > 0) expect(full.values[k]).toBeLessThanOrEqual(full.values[k - 1]);
          expect(residual(a, n, full.values[k], full.vectors!.subarray(k * n, k * n + n))).toBeLessThan(1e-12);
        }
        expect(Math.abs(sum - n)).toBeLessThan(1e-11);
        for (let q = 0; q < Math.min(3, n); q++) {
          expect(residual(a, n, top.values[q], top.vectors.subarray(q * n, q * n + n))).toBeLessThan(1e-9);
        }
      }),
      { numRuns: 40 },
    );
  });

  test("a diagonal matrix, a zero matrix and repeated eigenvalues", () => {
    const d = Float64Array.from([3, 0, 0, 0, 1, 0, 0, 0, 2]);
    expect(Array.from(symmetricEigen(d, 3).values)).toEqual([3, 2, 1]);
    expect(Array.from(topEigen(new Float64Array(9), 3, 2).values)).toEqual([0, 0, 0]);
    const ones = new Float64Array(16).fill(1); // eigenvalues 4, 0, 0, 0
    const t = topEigen(ones, 4, 1);
    expect(Math.abs(t.values[0] - 4)).toBeLessThan(1e-14);
    for (let i = 0; i < 4; i++) expect(Math.abs(Math.abs(t.vectors[i]) - 0.5)).toBeLessThan(1e-14);
  });
});

function checkCorrelation(c: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) {
    expect(c[i * n + i]).toBe(1);
    for (let j = 0; j < n; j++) {
      expect(c[i * n + j]).toBe(c[j * n + i]);
      expect(Math.abs(c[i * n + j])).toBeLessThanOrEqual(1);
    }
  }
}

describe("filters", () => {
  test("λ₊ = (1 + √(n/L))² and the spectrum's counts", () => {
    expect(marchenkoPasturEdge(50, 50)).toBe(4);
    const s = spectrumOf(Float64Array.from([5, 3.9, 4.1, 0.5].sort((a, b) => b - a)), 4, 16);
    expect(s.lambdaPlus).toBe(2.25);
    expect(s.nAbove).toBe(3);
    expect(s.absorptionRatio).toBe(5 / 4); // ⌈4/5⌉ = 1 eigenvalue
  });

  test("every filter gives a symmetric unit-diagonal matrix in [−1, 1], and returns the input untouched without filters", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 25 }),
        fc.integer({ min: 3, max: 40 }),
        fc.integer({ min: 0, max: 1e6 }),
        fc.constantFrom("none" as const, "mp" as const),
        fc.integer({ min: 0, max: 5 }),
        (n, L, seed, denoise, detone) => {
          const c = corrOf(n, L, seed);
          const copy = Float64Array.from(c);
          const out = filterCorrelation(c, n, L, { denoise, detone, spectrum: true });
          expect(c).toEqual(copy);
          checkCorrelation(out.corr, n);
          expect(out.spectrum!.eigenvalues.length).toBe(n);
          if (denoise === "none" && detone === 0) expect(out.corr).toBe(c);
        },
      ),
      { numRuns: 60 },
    );
  });

  test("denoise=mp on pure noise below the edge gives the identity; on a factor panel it keeps the market mode", () => {
    const n = 20;
    const L = 400;
    const noise = corrOf(n, L, 3, true);
    const eig = symmetricEigen(noise, n);
    expect(eig.values[0]).toBeLessThan(marchenkoPasturEdge(n, L));
    const id = denoiseMp(eig, n, L);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) expect(Math.abs(id[i * n + j] - (i === j ? 1 : 0))).toBeLessThan(1e-12);
    const factor = corrOf(n, L, 3);
    const d = filterCorrelation(factor, n, L, { denoise: "mp", detone: 0, spectrum: false }).corr;
    // The market mode survives: the denoised matrix's top eigenvalue stays above the edge.
    expect(symmetricEigen(d, n).values[0]).toBeGreaterThan(marchenkoPasturEdge(n, L));
  });

  test("detone=k removes the k leading components: the detoned matrix's leading eigenvector is orthogonal to the removed one", () => {
    const n = 15;
    const L = 100;
    const c = corrOf(n, L, 9);
    const before = symmetricEigen(c, n);
    const out = filterCorrelation(c, n, L, { denoise: "none", detone: 1, spectrum: false }).corr;
    // Before rescaling, c − λ₁v₁v₁ᵀ annihilates v₁; after it D^{-1/2}(…)D^{-1/2} annihilates D^{1/2}v₁.
    const sd = Array.from({ length: n }, (_, i) => {
      let s = 0;
      for (let q = 1; q < n; q++) s += before.values[q] * before.vectors![q * n + i] ** 2;
      return Math.sqrt(s);
    });
    const u = Float64Array.from({ length: n }, (_, i) => sd[i] * before.vectors![i]);
    expect(residual(out, n, 0, u)).toBeLessThan(1e-12);
  });

  test("with reuse the answer is written over the given matrix, and is the same; without, the matrix is left alone", () => {
    const n = 30;
    const L = 60;
    for (const [denoise, detone] of [
      ["mp", 0],
      ["mp", 2],
      ["none", 1],
    ] as const) {
      const o = { denoise, detone, spectrum: true };
      const c = corrOf(n, L, 17);
      const copy = Float64Array.from(c);
      const apart = filterCorrelation(c, n, L, o);
      expect(c).toEqual(copy);
      const reused = filterCorrelation(c, n, L, o, true);
      expect(reused.corr).toEqual(apart.corr);
      expect(reused.spectrum).toEqual(apart.spectrum);
      // denoise alone writes its answer into the caller's matrix; detone after it makes a new one.
      expect(reused.corr === c).toBe(denoise === "mp" && detone === 0);
    }
  });

  test("detone with k ≥ n removes everything: each series keeps ρ = 0 with the others", () => {
    const c = corrOf(3, 10, 1);
    const out = filterCorrelation(c, 3, 10, { denoise: "none", detone: 5, spectrum: false }).corr;
    expect(Array.from(out)).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  });
});

describe("several windows at a time", () => {
  const bits = (x: Float64Array) => [...new Uint32Array(Float64Array.from(x).buffer)];

  test("topEigenBatch gives each matrix bit for bit what topEigen gives it alone, in batches of 2 to 6", () => {
    for (const [n, L] of [
      [1, 5],
      [2, 6],
      [12, 40],
      [50, 60],
      [65, 50],
    ]) {
      const mats = [3, 4, 5, 6, 7, 8].map((seed) => corrOf(n, L, seed, seed % 2 === 0));
      const copies = mats.map((a) => Float64Array.from(a));
      const k = (values: Float64Array) => Math.min(3, values.length);
      const alone = mats.map((a) => topEigen(a, n, k));
      for (let size = 2; size <= mats.length; size++) {
        const batch = topEigenBatch(mats.slice(0, size), n, k);
        expect(mats).toEqual(copies);
        batch.forEach((e, q) => {
          expect(bits(e.values)).toEqual(bits(alone[q].values));
          expect(bits(e.vectors)).toEqual(bits(alone[q].vectors));
        });
      }
    }
  });

  test("filterCorrelationBatch gives each window bit for bit what filterCorrelation gives it", () => {
    const n = 30;
    const L = 45;
    const seeds = [5, 6, 7, 8, 9];
    for (const [denoise, detone, spectrum] of [
      ["mp", 0, true],
      ["mp", 2, false],
      ["none", 1, true],
      ["none", 0, true],
      ["none", 0, false],
    ] as const) {
      const o = { denoise, detone, spectrum };
      const alone = seeds.map((seed) => filterCorrelation(corrOf(n, L, seed), n, L, o));
      for (const reuse of [false, true]) {
        const batch = filterCorrelationBatch(
          seeds.map((seed) => corrOf(n, L, seed)),
          n,
          L,
          o,
          reuse,
        );
        batch.forEach((f, q) => {
          expect(bits(f.corr)).toEqual(bits(alone[q].corr));
          expect(f.spectrum).toEqual(alone[q].spectrum);
        });
      }
    }
  });
});
