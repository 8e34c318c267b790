import { describe, expect, test } from "bun:test";
import { qlEigenvalues } from "../ql-eigenvalues.ts";
import { applyReflections, scalarTridiagonalise } from "../top-eigen.ts";
import { symmetricEigen } from "../../../test/support/engine/symmetric-eigen.ts";
import { hasTridiagonalKernel, kernelReflect, kernelTridiagonalise, TRIDIAGONAL_SLOTS } from "./tridiagonal-kernel.ts";

/** A random symmetric n×n matrix (a correlation-like one when `corr`), with column `zero` all zeros off the diagonal. */
function symmetric(n: number, seed: number, zero = -1): Float64Array {
  let s = seed;
  const r = () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647 - 0.5;
  };
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      const v = i === j ? 1 + r() : i === zero || j === zero ? 0 : r();
      a[i * n + j] = v;
      a[j * n + i] = v;
    }
  return a;
}

describe("the SIMD tridiagonalisation", () => {
  test("runs here (Bun's WebAssembly has SIMD)", () => {
    expect(hasTridiagonalKernel).toBe(true);
  });

  for (const n of [0, 1, 2, 3, 4, 5, 8, 17, 50, 51, 64]) {
    test(`n = ${n}: the same reduction as the JavaScript loop, and the same eigenvalues as the full decomposition`, () => {
      for (const [seed, zero] of [
        [7, -1],
        [11, 0],
        [13, Math.floor(n / 2)],
      ] as const) {
        const a = symmetric(n, seed, zero);
        const copy = Float64Array.from(a);
        const k = kernelTridiagonalise(a, n)!;
        const s = scalarTridiagonalise(a, n);
        expect(a).toEqual(copy);
        expect(k.d.length).toBe(s.d.length);
        expect(k.e.length).toBe(s.e.length);
        // Only the order of the sums differs: each β·v vᵀ and the tridiagonal agree to rounding.
        for (let i = 0; i < n; i++) {
          expect(Math.abs(k.d[i] - s.d[i])).toBeLessThan(1e-12);
          if (i < n - 1) expect(Math.abs(k.e[i] - s.e[i])).toBeLessThan(1e-12);
          expect(k.beta[i] === 0).toBe(s.beta[i] === 0);
          // Only the entries a reflection has (below its row's diagonal) are read, so only they are written.
          for (let j = i + 1; j < n; j++) {
            const kv = k.beta[i] * k.vs[i * n + j] ** 2;
            const sv = s.beta[i] * s.vs[i * n + j] ** 2;
            expect(Math.abs(kv - sv)).toBeLessThan(1e-11);
          }
        }
        const values = qlEigenvalues(k.d, k.e, n);
        const reference = symmetricEigen(a, n).values;
        for (let i = 0; i < n; i++) expect(Math.abs(values[i] - reference[i])).toBeLessThan(1e-12);
      }
    });
  }

  test("reflect applies Q to every vector as the reflections' definition does; a JavaScript reduction is left alone", () => {
    for (const n of [1, 2, 3, 8, 17, 50]) {
      const k = Math.min(3, n);
      const t = kernelTridiagonalise(symmetric(n, 5), n)!;
      const zs = Float64Array.from({ length: k * n }, (_, i) => Math.sin(i + 1));
      const expected = Float64Array.from(zs);
      // Q z = H₀(H₁(…H_{n−3} z)), H_r = I − β_r v vᵀ on r+1 … n−1.
      for (let q = 0; q < k; q++)
        for (let r = n - 3; r >= 0; r--) {
          let s = 0;
          for (let j = r + 1; j < n; j++) s += t.vs[r * n + j] * expected[q * n + j];
          for (let j = r + 1; j < n; j++) expected[q * n + j] -= t.beta[r] * s * t.vs[r * n + j];
        }
      // The JavaScript fallback (for a reduction the kernel did not make) does the same.
      const js = Float64Array.from(zs);
      for (let q = 0; q < k; q++) applyReflections(t, js, q * n);
      expect(kernelReflect(t, zs, k)).toBe(true);
      for (let i = 0; i < k * n; i++) {
        expect(Math.abs(zs[i] - expected[i])).toBeLessThan(1e-13);
        expect(Math.abs(js[i] - expected[i])).toBeLessThan(1e-13);
      }
    }
    const scalar = scalarTridiagonalise(symmetric(8, 5), 8);
    const zs = new Float64Array(8).fill(1);
    expect(kernelReflect(scalar, zs, 1)).toBe(false);
    expect(Array.from(zs)).toEqual(new Array(8).fill(1));
  });

  test("a vector's reflection is the same bit for bit alone or with others; every slot reduces as slot 0 does", () => {
    const bits = (x: Float64Array) => [...new Uint32Array(Float64Array.from(x).buffer)];
    for (const n of [3, 17, 50]) {
      const a = symmetric(n, 21);
      const k = 3;
      const zs = Float64Array.from({ length: k * n }, (_, i) => Math.cos(i));
      const one = zs.slice();
      const t0 = kernelTridiagonalise(a, n, 0, TRIDIAGONAL_SLOTS)!;
      const copies = [t0.d, t0.e, t0.vs, t0.beta].map((x) => Float64Array.from(x));
      // Each further slot neither moves slot 0's views nor writes over them, and holds the same reduction.
      let t1 = t0;
      for (let slot = 1; slot < TRIDIAGONAL_SLOTS; slot++) {
        t1 = kernelTridiagonalise(a, n, slot)!;
        expect([t0.d, t0.e, t0.vs, t0.beta].map((x) => bits(x))).toEqual(copies.map((x) => bits(x)));
        expect(bits(t1.d)).toEqual(bits(t0.d));
        expect(bits(t1.e)).toEqual(bits(t0.e));
        expect(bits(t1.beta)).toEqual(bits(t0.beta));
      }
      expect(kernelTridiagonalise(a, n, TRIDIAGONAL_SLOTS)).toBeNull();
      expect(kernelReflect(t1, zs, k)).toBe(true);
      for (let q = 0; q < k; q++) {
        const alone = one.slice(q * n, (q + 1) * n);
        expect(kernelReflect(t0, alone, 1)).toBe(true);
        expect(bits(alone)).toEqual(bits(zs.subarray(q * n, (q + 1) * n)));
      }
    }
  });

  test("a matrix above the workspace bound is left to the JavaScript loop", () => {
    expect(kernelTridiagonalise(new Float64Array(0), 2100)).toBeNull();
  });
});
