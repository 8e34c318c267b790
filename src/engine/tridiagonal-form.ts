/**
 * A's tridiagonal form T = QᵀAQ, as the Householder reduction of top-eigen.ts and of
 * simd/tridiagonal-kernel.ts both give it: diagonal d, subdiagonal e (e[i] couples i and i+1), and
 * Q as reflections.
 */
export interface Tridiagonal {
  n: number;
  d: Float64Array;
  e: Float64Array;
  /** Reflection k (k = 0 … n−3) is I − beta[k]·v vᵀ on indices k+1 … n−1, v = vs[k·n + k+1 …]. */
  vs: Float64Array;
  beta: Float64Array;
}
