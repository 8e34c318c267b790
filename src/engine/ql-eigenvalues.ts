/**
 * The QL algorithm on a symmetric tridiagonal: the engine's eigenvalues come from its rational,
 * square-root-free form (EISPACK's tqlrat), which runs on the squared subdiagonal and takes about
 * half the time of the rotations of tql2 (EISPACK's, as transcribed in JAMA). tql2 stays for the
 * tests' full decomposition (test/support/engine/symmetric-eigen.ts), which needs the rotations for
 * the vectors. Both are backward stable: each eigenvalue is within a few n·ε·‖A‖ of LAPACK's
 * (numpy.linalg.eigh).
 */

import { QL_BATCH, type QlInput, qlKernelInputs, runQlKernel } from "./simd/ql-kernel.ts";
import type { Tridiagonal } from "./tridiagonal-form.ts";

/** A symmetric tridiagonal: diagonal d (n), subdiagonal e (e[i] couples i and i + 1). */
type Diagonals = Pick<Tridiagonal, "d" | "e">;

/**
 * Eigenvalues, descending, of the symmetric tridiagonal with diagonal d (n) and subdiagonal e
 * (e[i] couples i and i + 1); d and e are not changed.
 */
export function qlEigenvalues(d: ArrayLike<number>, e: ArrayLike<number>, n: number): Float64Array {
  const input = { d: new Float64Array(n), e2: new Float64Array(n) };
  load(d, e, n, input);
  if (n > 0) tqlrat(input.d, input.e2, n);
  return input.d.sort().reverse();
}

/**
 * The eigenvalues of several tridiagonals of one size, each bit for bit what qlEigenvalues gives
 * it: the WebAssembly kernel runs up to QL_BATCH QLs side by side where it runs (ql-kernel.ts),
 * four at n = 50 in about 0.4× the time of one after the other. One alone runs no faster there
 * than in JavaScript, so qlEigenvalues does not use it.
 */
export function qlEigenvaluesBatch(ts: readonly Diagonals[], n: number): Float64Array[] {
  const out: Float64Array[] = [];
  for (let from = 0; from < ts.length; from += QL_BATCH) {
    const group = ts.slice(from, from + QL_BATCH);
    const inputs = group.length > 1 ? qlKernelInputs(n, group.length) : null;
    if (inputs === null) {
      for (const t of group) out.push(qlEigenvalues(t.d, t.e, n));
      continue;
    }
    for (let q = 0; q < group.length; q++) load(group[q].d, group[q].e, n, inputs[q]);
    if (runQlKernel(n, group.length) !== 0) throw new Error("qlEigenvalues: QL did not converge");
    for (const x of inputs) out.push(Float64Array.from(x.d).sort().reverse());
  }
  return out;
}

/**
 * The QL's input: the diagonal and the squared couplings (e2[n − 1] = 0). QL deflates from the
 * top; like LAPACK's dsterf, it runs on the reversed matrix (QR) when the bottom end is the
 * smaller, where a Householder-reduced correlation matrix is already nearly split: about 10%
 * fewer inner steps at n = 50.
 */
function load(d: ArrayLike<number>, e: ArrayLike<number>, n: number, into: QlInput): void {
  const reverse = n > 1 && Math.abs(d[n - 1]) < Math.abs(d[0]);
  for (let i = 0; i < n; i++) into.d[i] = reverse ? d[n - 1 - i] : d[i];
  for (let i = 0; i + 1 < n; i++) {
    const x = reverse ? e[n - 2 - i] : e[i];
    into.e2[i] = x * x;
  }
  if (n > 0) into.e2[n - 1] = 0;
}

/**
 * Rational QL (EISPACK tqlrat, 0-based; ql-kernel.wat is this, step for step): d the diagonal, e2[i] the squared coupling of i and
 * i + 1 (e2[n − 1] = 0), both overwritten; d ends as the eigenvalues, unordered.
 */
function tqlrat(d: Float64Array, e2: Float64Array, n: number): void {
  const eps = 2 ** -52;
  let f = 0;
  let t = 0;
  // b: the smallest value a pivot g is let become (ε·‖T‖, not 0); c = b²: the deflation bound on e2.
  let b = 0;
  let c = 0;
  for (let l = 0; l < n; l++) {
    const norm = Math.abs(d[l]) + Math.sqrt(e2[l]);
    if (t < norm) {
      t = norm;
      b = eps * t;
      c = b * b;
    }
    let m = l;
    while (e2[m] > c) m++;
    let iter = 0;
    while (m > l) {
      if (++iter > 100) throw new Error("qlEigenvalues: QL did not converge");
      // The shift: the eigenvalue of the leading 2×2 nearer d[l], d[l] − e²/(δ + sign(δ)·√(δ² + e²))
      // with δ = (d[l + 1] − d[l])/2: one square root and one division where the textbook form has two of each.
      let g = d[l];
      const delta = 0.5 * (d[l + 1] - g);
      const root = Math.sqrt(delta * delta + e2[l]);
      d[l] = e2[l] / (delta + (delta >= 0 ? root : -root));
      let h = g - d[l];
      for (let i = l + 1; i < n; i++) d[i] -= h;
      f += h;
      g = d[m];
      if (g === 0) g = b;
      h = g;
      let s = 0;
      for (let i = m - 1; i >= l; i--) {
        const p = g * h;
        const r = p + e2[i];
        // s and p/r from one reciprocal: two divisions a step, not three (the kernel runs out of dividers first when paired).
        const ir = 1 / r;
        e2[i + 1] = s * r;
        s = e2[i] * ir;
        d[i + 1] = h + s * (h + d[i]);
        g = d[i] - e2[i] / g;
        if (g === 0) g = b;
        h = g * p * ir;
      }
      d[l] = h;
      // Converged when the new coupling is negligible; tqlrat divides c by h to test this before
      // the product, which is one division more per sweep than testing the product itself.
      e2[l] = s * g * h;
      if (Math.abs(e2[l]) <= c) break;
    }
    d[l] += f;
  }
}

/** Implicit QL on the tridiagonal (d, e), rotating the rows of W (the transposed eigenvectors) when given. */
export function tql2(W: Float64Array | null, d: Float64Array, e: Float64Array, n: number): void {
  for (let i = 1; i < n; i++) e[i - 1] = e[i];
  e[n - 1] = 0;
  let f = 0;
  let tst1 = 0;
  const eps = 2 ** -52;
  for (let l = 0; l < n; l++) {
    tst1 = Math.max(tst1, Math.abs(d[l]) + Math.abs(e[l]));
    let m = l;
    while (m < n) {
      if (Math.abs(e[m]) <= eps * tst1) break;
      m++;
    }
    if (m > l) {
      let iter = 0;
      do {
        if (++iter > 100) throw new Error("symmetricEigen: QL did not converge");
        let g = d[l];
        let p = (d[l + 1] - g) / (2 * e[l]);
        let r = Math.sqrt(p * p + 1);
        if (p < 0) r = -r;
        d[l] = e[l] / (p + r);
        d[l + 1] = e[l] * (p + r);
        const dl1 = d[l + 1];
        let h = g - d[l];
        for (let i = l + 2; i < n; i++) d[i] -= h;
        f += h;
        p = d[m];
        let c = 1;
        let c2 = c;
        let c3 = c;
        const el1 = e[l + 1];
        let s = 0;
        let s2 = 0;
        for (let i = m - 1; i >= l; i--) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i];
          h = c * p;
          r = Math.sqrt(p * p + e[i] * e[i]);
          e[i + 1] = s * r;
          s = e[i] / r;
          c = p / r;
          p = c * d[i] - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]);
          if (W) {
            const oi = i * n;
            const oj = oi + n;
            for (let k = 0; k < n; k++) {
              const wk = W[oj + k];
              W[oj + k] = s * W[oi + k] + c * wk;
              W[oi + k] = c * W[oi + k] - s * wk;
            }
          }
        }
        p = (-s * s2 * c3 * el1 * e[l]) / dl1;
        e[l] = s * p;
        d[l] = c * p;
      } while (Math.abs(e[l]) > eps * tst1);
    }
    d[l] += f;
    e[l] = 0;
  }
}
