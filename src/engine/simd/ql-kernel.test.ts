/**
 * The QL kernel (ql-kernel.wat) against the JavaScript loop it transcribes: tridiagonals run side
 * by side, two to four (and more, in groups) at a time, give each the eigenvalues qlEigenvalues
 * gives it alone, bit for bit, and those are the full decomposition's.
 */
import { describe, expect, test } from "bun:test";
import { symmetricEigen } from "../../../test/support/engine/symmetric-eigen.ts";
import { qlEigenvalues, qlEigenvaluesBatch } from "../ql-eigenvalues.ts";
import { tridiagonalise } from "../top-eigen.ts";
import { hasQlKernel } from "./ql-kernel.ts";

function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 16807) % 2147483647;
    return s / 2147483647 - 0.5;
  };
}

/** A tridiagonal of size n: random, or with every `split`-th coupling 0 (the QL deflates there). */
function tridiagonal(n: number, seed: number, split = 0) {
  const r = random(seed);
  const d = Float64Array.from({ length: n }, () => 2 * r());
  const e = Float64Array.from({ length: Math.max(n - 1, 0) }, (_, i) => (split > 0 && i % split === split - 1 ? 0 : r()));
  return { d, e };
}

/** The tridiagonal form of a correlation matrix of n series sharing one factor (what the filters reduce). */
function reducedCorrelation(n: number, seed: number) {
  const r = random(seed);
  const L = Math.ceil(1.2 * n) + 2;
  const x = Array.from({ length: L }, () => {
    const f = r();
    return Float64Array.from({ length: n }, () => f + r());
  });
  const c = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (const row of x) s += row[i] * row[j];
      c[i * n + j] = s;
    }
  const sd = Float64Array.from({ length: n }, (_, i) => Math.sqrt(c[i * n + i]));
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) c[i * n + j] /= sd[i] * sd[j];
  const t = tridiagonalise(c, n);
  return { d: Float64Array.from(t.d), e: Float64Array.from(t.e) };
}

function dense(t: { d: Float64Array; e: Float64Array }, n: number): Float64Array {
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    a[i * n + i] = t.d[i];
    if (i + 1 < n) {
      a[i * n + i + 1] = t.e[i];
      a[(i + 1) * n + i] = t.e[i];
    }
  }
  return a;
}

const bits = (x: Float64Array) => [...new Uint32Array(Float64Array.from(x).buffer)];

describe("the QL kernel", () => {
  test("runs here (Bun has WebAssembly)", () => {
    expect(hasQlKernel).toBe(true);
  });

  for (const n of [1, 2, 3, 5, 17, 50, 64, 150]) {
    test(`n = ${n}: each of a batch gets bit for bit its eigenvalues alone, and those are the full decomposition's`, () => {
      const cases = [
        [tridiagonal(n, 7), tridiagonal(n, 8)],
        [tridiagonal(n, 9, 4), tridiagonal(n, 10)],
        [tridiagonal(n, 11), tridiagonal(n, 12, 3)],
        [reducedCorrelation(n, 13), reducedCorrelation(n, 14)],
        [reducedCorrelation(n, 15), tridiagonal(n, 16, 2)],
      ];
      const all = cases.flat();
      const alone = all.map((t) => qlEigenvalues(t.d, t.e, n));
      // Every batch size from 2 to all ten (groups of four, then the rest), in order and reversed,
      // and a tridiagonal batched with itself.
      for (let size = 2; size <= all.length; size++) {
        for (const order of [all.slice(0, size), all.slice(0, size).reverse()]) {
          const batched = qlEigenvaluesBatch(order, n);
          order.forEach((t, q) => expect(bits(batched[q])).toEqual(bits(alone[all.indexOf(t)])));
        }
      }
      for (const x of qlEigenvaluesBatch([all[0], all[0], all[0]], n)) expect(bits(x)).toEqual(bits(alone[0]));
      all.forEach((t, q) => {
        const reference = symmetricEigen(dense(t, n), n, false).values;
        const scale = Math.max(1, ...Array.from(reference, Math.abs));
        for (let i = 0; i < n; i++) expect(Math.abs(alone[q][i] - reference[i])).toBeLessThan(1e-13 * scale * n);
      });
    });
  }

  test("the inputs are left unchanged", () => {
    const a = tridiagonal(20, 3);
    const b = tridiagonal(20, 4);
    const copies = [a.d, a.e, b.d, b.e].map((x) => Float64Array.from(x));
    qlEigenvaluesBatch([a, b, a], 20);
    expect([a.d, a.e, b.d, b.e]).toEqual(copies);
  });
});
