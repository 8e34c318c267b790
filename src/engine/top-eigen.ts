/**
 * Every eigenvalue and the leading eigenvectors of a dense symmetric matrix, for the random-matrix
 * filters (random-matrix.ts) on every as-of of a rolling request: Householder tridiagonalisation
 * on contiguous rows, QL for the eigenvalues, then inverse iteration on the tridiagonal and the
 * reflections applied back for only the k vectors the filters read (k = the eigenvalues above λ₊,
 * or detone's k). The full decomposition (test/support/engine/symmetric-eigen.ts) costs 3× as much
 * at n = 50 and is the reference the tests compare this with (docs/engine.md § Random-matrix filtering).
 */
import { tridiagonalEigenvector } from "./metrics/tridiagonal.ts";
import { qlEigenvalues, qlEigenvaluesBatch } from "./ql-eigenvalues.ts";
import { kernelReflect, kernelTridiagonalise, TRIDIAGONAL_SLOTS } from "./simd/tridiagonal-kernel.ts";
import type { Tridiagonal } from "./tridiagonal-form.ts";

export type { Tridiagonal };

/**
 * Householder reduction of the symmetric row-major `a` (not changed): the SIMD kernel's where it
 * runs, into `slot` of a batch of `slots` (topEigenBatch).
 */
export function tridiagonalise(a: Float64Array, n: number, slot = 0, slots = 1): Tridiagonal {
  return kernelTridiagonalise(a, n, slot, slots) ?? scalarTridiagonalise(a, n);
}

/** The same reduction in JavaScript, one column at a time (the kernel's fallback and its reference). */
export function scalarTridiagonalise(a: Float64Array, n: number): Tridiagonal {
  const A = Float64Array.from(a);
  const d = new Float64Array(n);
  const e = new Float64Array(Math.max(n - 1, 0));
  const vs = new Float64Array(n * n);
  const beta = new Float64Array(n);
  const p = new Float64Array(n);
  // Only the lower triangle is kept up to date (half the update's work); column k is read below the diagonal.
  for (let k = 0; k < n - 2; k++) {
    const row = k * n;
    d[k] = A[row + k];
    let sigma = 0;
    for (let j = k + 1; j < n; j++) {
      const x = A[j * n + k];
      vs[row + j] = x;
      sigma += x * x;
    }
    const x0 = vs[row + k + 1];
    if (sigma === 0) {
      e[k] = 0;
      continue;
    }
    const norm = Math.sqrt(sigma);
    const alpha = x0 > 0 ? -norm : norm;
    e[k] = alpha;
    // v = x − αe₁; vᵀv = 2(σ − αx₀).
    vs[row + k + 1] = x0 - alpha;
    const b = 1 / (sigma - alpha * x0);
    beta[k] = b;
    // p = β·A₂₂v (symmetric, from the lower triangle), K = (β/2)·pᵀv, w = p − Kv; A₂₂ ← A₂₂ − vwᵀ − wvᵀ.
    for (let i = k + 1; i < n; i++) p[i] = 0;
    for (let i = k + 1; i < n; i++) {
      const ri = i * n;
      const vi = vs[row + i];
      let s = A[ri + i] * vi;
      for (let j = k + 1; j < i; j++) {
        const a = A[ri + j];
        s += a * vs[row + j];
        p[j] += a * vi;
      }
      p[i] += s;
    }
    let pv = 0;
    for (let i = k + 1; i < n; i++) {
      p[i] *= b;
      pv += p[i] * vs[row + i];
    }
    const K = 0.5 * b * pv;
    for (let i = k + 1; i < n; i++) p[i] -= K * vs[row + i];
    for (let i = k + 1; i < n; i++) {
      const ri = i * n;
      const vi = vs[row + i];
      const wi = p[i];
      for (let j = k + 1; j <= i; j++) A[ri + j] -= vi * p[j] + wi * vs[row + j];
    }
  }
  if (n >= 2) {
    d[n - 2] = A[(n - 2) * n + n - 2];
    e[n - 2] = A[(n - 1) * n + n - 2];
  }
  if (n >= 1) d[n - 1] = A[n * n - 1];
  return { n, d, e, vs, beta };
}

/** How many leading eigenvectors to take: a number, or chosen from the eigenvalues (denoise keeps those above λ₊). */
export type Leading = number | ((values: Float64Array) => number);

export interface TopEigen {
  /** Every eigenvalue, descending. */
  values: Float64Array;
  /** Unit eigenvectors of the leading k, row q at q·n. */
  vectors: Float64Array;
}

/** Eigenvalues of A (descending) and unit eigenvectors of the leading k. */
export function topEigen(a: Float64Array, n: number, k: Leading): TopEigen {
  const t = tridiagonalise(a, n);
  return leadingVectors(t, qlEigenvalues(t.d, t.e, n), k);
}

/**
 * topEigen of several matrices of one size, each the same bit for bit: up to TRIDIAGONAL_SLOTS
 * reductions are held at once (the kernel's slots) so that their QLs run side by side
 * (qlEigenvaluesBatch).
 */
export function topEigenBatch(as: readonly Float64Array[], n: number, k: Leading): TopEigen[] {
  const out: TopEigen[] = [];
  for (let from = 0; from < as.length; from += TRIDIAGONAL_SLOTS) {
    const group = as.slice(from, from + TRIDIAGONAL_SLOTS);
    const ts = group.map((a, slot) => tridiagonalise(a, n, slot, group.length));
    const values = qlEigenvaluesBatch(ts, n);
    for (let q = 0; q < ts.length; q++) out.push(leadingVectors(ts[q], values[q], k));
  }
  return out;
}

/** The leading k eigenvectors of A from its reduction `t` and its eigenvalues. */
function leadingVectors(t: Tridiagonal, values: Float64Array, k: Leading): TopEigen {
  const n = t.n;
  const m = Math.min(typeof k === "number" ? k : k(values), n);
  // Each vector of T, then all of them back through the reflections at once (in the kernel where the reduction ran).
  const vectors = new Float64Array(m * n);
  for (let q = 0; q < m; q++) tridiagonalEigenvector(t.d, t.e, n, values[q], vectors, q * n);
  if (!kernelReflect(t, vectors, m)) for (let q = 0; q < m; q++) applyReflections(t, vectors, q * n);
  // Offsets rather than subarrays: a view per vector costs more here than the arithmetic it saves.
  for (let q = 0; q < m; q++) {
    const o = q * n;
    // Inverse iteration at (nearly) equal eigenvalues lands on one vector: keep each orthogonal to the earlier ones.
    for (let r = 0; r < q; r++) {
      const or = r * n;
      let dot = 0;
      for (let i = 0; i < n; i++) dot += vectors[o + i] * vectors[or + i];
      for (let i = 0; i < n; i++) vectors[o + i] -= dot * vectors[or + i];
    }
    let sq = 0;
    for (let i = 0; i < n; i++) sq += vectors[o + i] * vectors[o + i];
    const inv = 1 / Math.sqrt(sq);
    for (let i = 0; i < n; i++) vectors[o + i] *= inv;
  }
  return { values, vectors };
}

/** z ← Q z (Q = H₀H₁…H_{n−3}) for z = zs[o … o + n): an eigenvector of T becomes one of A (the kernel's reflect, in JavaScript). */
export function applyReflections(t: Tridiagonal, zs: Float64Array, o: number): void {
  const { n, vs, beta } = t;
  for (let k = n - 3; k >= 0; k--) {
    const b = beta[k];
    if (b === 0) continue;
    const row = k * n;
    let s = 0;
    for (let j = k + 1; j < n; j++) s += vs[row + j] * zs[o + j];
    s *= b;
    for (let j = k + 1; j < n; j++) zs[o + j] -= s * vs[row + j];
  }
}
