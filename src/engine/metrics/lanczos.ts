/**
 * Perron pair of one connected component by Lanczos with full reorthogonalisation, started from
 * the uniform vector: power iteration needs tens of thousands of products on graphs with a small
 * spectral gap, Lanczos a few dozen (docs/engine.md § Eigenvector centrality).
 */
import type { Graph } from "../graph.ts";
import { gershgorin, tridiagonalEigenvalue, tridiagonalEigenvector } from "./tridiagonal.ts";

export interface PerronPair {
  /** Largest eigenvalue of A on the component. */
  value: number;
  /** Unit L2 eigenvector over the component's nodes (same order as `nodes`), entries >= 0 up to rounding. */
  vector: Float64Array;
  /** Largest |eigenvalue| of A + I on the component other than the Perron one, over value + 1 (0 if none seen). */
  ratio: number;
}

/** Estimated sin(angle) between the Ritz vector and the eigenvector at which Lanczos stops. */
const VECTOR_TOL = 1e-13;

/**
 * `nodes` lists one connected component (at least one edge); `local[v]` is v's position in it.
 * Returns null if Lanczos breaks down without converging (the caller falls back to power iteration).
 */
export function perronPair(g: Graph, nodes: Int32Array, local: Int32Array): PerronPair | null {
  const nc = nodes.length;
  const { offsets, nbr, nbrW } = g;
  // Lanczos vectors, row after row; grown on demand since most components converge in a few dozen steps.
  let Q = new Float64Array(Math.min(nc, 32) * nc);
  const alpha = new Float64Array(nc);
  const beta = new Float64Array(nc);
  const w = new Float64Array(nc);
  const q0 = 1 / Math.sqrt(nc);
  for (let i = 0; i < nc; i++) Q[i] = q0;
  let nextCheck = 6;
  for (let j = 0; j < nc; j++) {
    const qj = j * nc;
    for (let a = 0; a < nc; a++) {
      const v = nodes[a];
      let s = 0;
      for (let p = offsets[v]; p < offsets[v + 1]; p++) s += Q[qj + local[nbr[p]]] * nbrW[p];
      w[a] = s;
    }
    let al = 0;
    for (let a = 0; a < nc; a++) al += Q[qj + a] * w[a];
    alpha[j] = al;
    // Three-term recurrence, then full reorthogonalisation (classical Gram-Schmidt, a second pass
    // only when the first cancelled much, "twice is enough"): keeps Q orthonormal to rounding, so
    // no spurious copies of the Perron value appear however many steps run.
    if (j > 0) {
      const qp = (j - 1) * nc;
      const bp = beta[j - 1];
      for (let a = 0; a < nc; a++) w[a] -= al * Q[qj + a] + bp * Q[qp + a];
    } else for (let a = 0; a < nc; a++) w[a] -= al * Q[qj + a];
    let before = 0;
    for (let a = 0; a < nc; a++) before += w[a] * w[a];
    let b = 0;
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i <= j; i++) {
        const qi = i * nc;
        let h = 0;
        for (let a = 0; a < nc; a++) h += Q[qi + a] * w[a];
        for (let a = 0; a < nc; a++) w[a] -= h * Q[qi + a];
      }
      b = 0;
      for (let a = 0; a < nc; a++) b += w[a] * w[a];
      if (b > 0.5 * before) break;
      before = b;
    }
    b = Math.sqrt(b);
    beta[j] = b;
    const m = j + 1;
    const scale = Math.max(Math.abs(alpha[0]), 1e-300);
    const invariant = b <= 1e-14 * scale || m === nc;
    if (invariant || m >= nextCheck) {
      nextCheck = m + 1 + (m >> 2);
      const r = ritz(alpha, beta, m, b);
      if (invariant || (r.residual <= VECTOR_TOL * r.gap && r.residual <= 1e-12 * Math.abs(r.value))) {
        const vector = new Float64Array(nc);
        for (let i = 0; i < m; i++) {
          const c = r.coeffs[i];
          const qi = i * nc;
          for (let a = 0; a < nc; a++) vector[a] += c * Q[qi + a];
        }
        let sum = 0;
        let sq = 0;
        for (let a = 0; a < nc; a++) {
          sum += vector[a];
          sq += vector[a] * vector[a];
        }
        const norm = (sum < 0 ? -1 : 1) / Math.sqrt(sq);
        for (let a = 0; a < nc; a++) vector[a] *= norm;
        return { value: r.value, vector, ratio: r.ratio };
      }
    }
    if (b === 0) return null;
    const qn = (j + 1) * nc;
    if (j + 1 === nc) break;
    if (qn + nc > Q.length) {
      const grown = new Float64Array(Math.min(nc, 2 * (j + 1)) * nc);
      grown.set(Q);
      Q = grown;
    }
    for (let a = 0; a < nc; a++) Q[qn + a] = w[a] / b;
  }
  return null;
}

/** Top Ritz pair of the m-step Lanczos matrix, its residual norm, the gap to the next Ritz value, and the spread ratio. */
function ritz(alpha: Float64Array, beta: Float64Array, m: number, bNext: number) {
  const bounds = gershgorin(alpha, beta, m);
  const value = tridiagonalEigenvalue(alpha, beta, m, m - 1, bounds);
  const coeffs = tridiagonalEigenvector(alpha, beta, m, value);
  const residual = bNext * Math.abs(coeffs[m - 1]);
  if (m === 1) return { value, coeffs, residual, gap: Infinity, ratio: 0 };
  // The gap and the ratio only steer the stopping test and the fallback: 1e-9 relative will do.
  const second = tridiagonalEigenvalue(alpha, beta, m, m - 2, bounds, 1e-9);
  const lowest = tridiagonalEigenvalue(alpha, beta, m, 0, bounds, 1e-9);
  // Power iteration runs on A + I: its other modes shrink by |theta + 1| / (value + 1) per step.
  const ratio = Math.max(Math.abs(second + 1), Math.abs(lowest + 1)) / (value + 1);
  return { value, coeffs, residual, gap: value - second, ratio };
}
