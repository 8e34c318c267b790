/**
 * A full dense symmetric eigen-decomposition for the tests: Householder reduction (EISPACK's tred2,
 * as transcribed in JAMA), then the engine's own QL (ql-eigenvalues.ts) rotating the vectors. The
 * engine needs only every eigenvalue and the leading vectors (top-eigen.ts); this is what its
 * tests hold those against.
 */
import { tql2 } from "../../../src/engine/ql-eigenvalues.ts";

export interface SymmetricEigen {
  /** Eigenvalues, descending. */
  values: Float64Array;
  /** With vectors: row k (vectors[k·n … k·n + n − 1]) is the unit eigenvector of values[k]. */
  vectors: Float64Array | null;
}

/**
 * Eigenvalues (descending) and, when `vectors`, eigenvectors of the symmetric n×n row-major `a`
 * (only its lower triangle is read; `a` is not changed). Without vectors the accumulation of
 * the Householder reflections and the QL rotations are skipped: about a third of the work.
 */
export function symmetricEigen(a: Float64Array, n: number, vectors = true): SymmetricEigen {
  const values = new Float64Array(n);
  if (n === 0) return { values, vectors: vectors ? new Float64Array(0) : null };
  const V = Float64Array.from(a);
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  tred2(V, d, e, n, vectors);
  // tql2 rotates columns of V; on its transpose those are rows, read contiguously.
  const W = vectors ? transpose(V, n) : null;
  tql2(W, d, e, n);
  const order = Array.from({ length: n }, (_, k) => k).sort((x, y) => d[y] - d[x] || x - y);
  for (let k = 0; k < n; k++) values[k] = d[order[k]];
  if (!W) return { values, vectors: null };
  const out = new Float64Array(n * n);
  for (let k = 0; k < n; k++) out.set(W.subarray(order[k] * n, order[k] * n + n), k * n);
  return { values, vectors: out };
}

function transpose(m: Float64Array, n: number): Float64Array {
  const t = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) t[j * n + i] = m[i * n + j];
  return t;
}

/** Householder tridiagonalisation in place: d the diagonal, e[1..n−1] the subdiagonal; V the accumulated reflections when `accumulate`. */
function tred2(V: Float64Array, d: Float64Array, e: Float64Array, n: number, accumulate: boolean): void {
  for (let j = 0; j < n; j++) d[j] = V[(n - 1) * n + j];
  for (let i = n - 1; i > 0; i--) {
    let scale = 0;
    let h = 0;
    for (let k = 0; k < i; k++) scale += Math.abs(d[k]);
    if (scale === 0) {
      e[i] = d[i - 1];
      for (let j = 0; j < i; j++) {
        d[j] = V[(i - 1) * n + j];
        V[i * n + j] = 0;
        V[j * n + i] = 0;
      }
    } else {
      for (let k = 0; k < i; k++) {
        d[k] /= scale;
        h += d[k] * d[k];
      }
      let f = d[i - 1];
      let g = Math.sqrt(h);
      if (f > 0) g = -g;
      e[i] = scale * g;
      h -= f * g;
      d[i - 1] = f - g;
      for (let j = 0; j < i; j++) e[j] = 0;
      for (let j = 0; j < i; j++) {
        f = d[j];
        V[j * n + i] = f;
        g = e[j] + V[j * n + j] * f;
        for (let k = j + 1; k <= i - 1; k++) {
          const vkj = V[k * n + j];
          g += vkj * d[k];
          e[k] += vkj * f;
        }
        e[j] = g;
      }
      f = 0;
      for (let j = 0; j < i; j++) {
        e[j] /= h;
        f += e[j] * d[j];
      }
      const hh = f / (h + h);
      for (let j = 0; j < i; j++) e[j] -= hh * d[j];
      for (let j = 0; j < i; j++) {
        f = d[j];
        g = e[j];
        for (let k = j; k <= i - 1; k++) V[k * n + j] -= f * e[k] + g * d[k];
        d[j] = V[(i - 1) * n + j];
        V[i * n + j] = 0;
      }
    }
    d[i] = h;
  }
  if (accumulate) {
    for (let i = 0; i < n - 1; i++) {
      V[(n - 1) * n + i] = V[i * n + i];
      V[i * n + i] = 1;
      const h = d[i + 1];
      if (h !== 0) {
        for (let k = 0; k <= i; k++) d[k] = V[k * n + i + 1] / h;
        for (let j = 0; j <= i; j++) {
          let g = 0;
          for (let k = 0; k <= i; k++) g += V[k * n + i + 1] * V[k * n + j];
          for (let k = 0; k <= i; k++) V[k * n + j] -= g * d[k];
        }
      }
      for (let k = 0; k <= i; k++) V[k * n + i + 1] = 0;
    }
    for (let j = 0; j < n; j++) {
      d[j] = V[(n - 1) * n + j];
      V[(n - 1) * n + j] = 0;
    }
    V[(n - 1) * n + (n - 1)] = 1;
  } else {
    // The diagonal as the accumulation would leave it: tred2 stores it in V's last row and diagonal.
    for (let i = 0; i < n - 1; i++) V[(n - 1) * n + i] = V[i * n + i];
    for (let j = 0; j < n; j++) d[j] = V[(n - 1) * n + j];
  }
  e[0] = 0;
}
