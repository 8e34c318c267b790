import type { Graph } from "../graph.ts";
import { connectedComponents } from "./components.ts";

export const PAGERANK_ALPHA = 0.85;
export const PAGERANK_TOL = 1e-12;
export const PAGERANK_MAX_ITER = 100_000;

/** Largest component the linear solve takes (its cost grows with size³). */
export const SOLVE_MAX_COMPONENT = 64;
/** Densest graph (2m / n, the average degree) the linear solve takes. */
export const SOLVE_MAX_AVG_DEGREE = 4;

/**
 * nx.pagerank(G, alpha=0.85, weight="weight"). A linear solve on small components of sparse or
 * disconnected graphs, where the power iteration mixes slowly; networkx's power iteration
 * elsewhere, where the solve's cubic cost loses. Both are exact (within ~1e-11 of each other);
 * the derivation and the measured crossover: docs/engine.md § PageRank.
 */
export function pagerank(g: Graph, alpha = PAGERANK_ALPHA, tol = PAGERANK_TOL, maxIter = PAGERANK_MAX_ITER): Float64Array | null {
  if (g.n > 0) {
    const x = pagerankBySolve(g, alpha, g.nbr.length <= SOLVE_MAX_AVG_DEGREE * g.n);
    if (x !== null) return x;
  }
  return pagerankPowerIteration(g, alpha, tol, maxIter);
}

/**
 * PageRank as the linear system x ∝ (I − αMᵀ)⁻¹ 1, per component, by Gaussian elimination
 * (stable without pivoting: the matrix is column diagonally dominant; docs/engine.md). Null when a
 * component exceeds SOLVE_MAX_COMPONENT, or when the graph is connected and `connectedToo` is false.
 */
export function pagerankBySolve(g: Graph, alpha = PAGERANK_ALPHA, connectedToo = true): Float64Array | null {
  const n = g.n;
  const { members } = connectedComponents(g);
  if (members.length === 1 && !connectedToo) return null;
  for (const list of members) if (list.length > SOLVE_MAX_COMPONENT) return null;
  const { offsets, nbr, nbrW } = g;
  const invStrength = inverseStrengths(g);
  const y = new Float64Array(n);
  const local = new Int32Array(n);
  const a = new Float64Array(SOLVE_MAX_COMPONENT * SOLVE_MAX_COMPONENT);
  const b = new Float64Array(SOLVE_MAX_COMPONENT);
  for (const list of members) {
    const s = list.length;
    if (s === 1) {
      y[list[0]] = 1;
      continue;
    }
    for (let i = 0; i < s; i++) local[list[i]] = i;
    a.fill(0, 0, s * s);
    // Row i: y_v − α Σ_u w(u, v) / S_u · y_u = 1.
    for (let i = 0; i < s; i++) {
      const v = list[i];
      a[i * s + i] = 1;
      for (let p = offsets[v]; p < offsets[v + 1]; p++) a[i * s + local[nbr[p]]] -= alpha * nbrW[p] * invStrength[nbr[p]];
      b[i] = 1;
    }
    for (let k = 0; k < s; k++) {
      const rk = k * s;
      const pivot = a[rk + k];
      for (let i = k + 1; i < s; i++) {
        const ri = i * s;
        const f = a[ri + k] / pivot;
        if (f === 0) continue;
        for (let j = k + 1; j < s; j++) a[ri + j] -= f * a[rk + j];
        b[i] -= f * b[k];
      }
    }
    for (let i = s - 1; i >= 0; i--) {
      let acc = b[i];
      for (let j = i + 1; j < s; j++) acc -= a[i * s + j] * b[j];
      b[i] = acc / a[i * s + i];
    }
    for (let i = 0; i < s; i++) y[list[i]] = b[i];
  }
  let total = 0;
  for (let v = 0; v < n; v++) total += y[v];
  for (let v = 0; v < n; v++) y[v] /= total;
  return y;
}

/**
 * networkx 2.8's scipy power iteration, step for step. Stops when Σ|x - x_last| < n·tol; null if
 * that never happens within maxIter.
 */
export function pagerankPowerIteration(
  g: Graph,
  alpha = PAGERANK_ALPHA,
  tol = PAGERANK_TOL,
  maxIter = PAGERANK_MAX_ITER,
): Float64Array | null {
  const n = g.n;
  if (n === 0) return new Float64Array(0);
  const { offsets, nbr, nbrW } = g;
  const invStrength = inverseStrengths(g);
  let x = new Float64Array(n).fill(1 / n);
  let next = new Float64Array(n);
  const share = new Float64Array(n);
  for (let it = 0; it < maxIter; it++) {
    let dangling = 0;
    for (let v = 0; v < n; v++) {
      share[v] = x[v] * invStrength[v];
      if (invStrength[v] === 0) dangling += x[v];
    }
    const base = alpha * (dangling / n) + (1 - alpha) / n;
    let err = 0;
    for (let v = 0; v < n; v++) {
      let s = 0;
      for (let p = offsets[v]; p < offsets[v + 1]; p++) s += share[nbr[p]] * nbrW[p];
      next[v] = alpha * s + base;
      err += Math.abs(next[v] - x[v]);
    }
    const t = x;
    x = next;
    next = t;
    if (err < n * tol) return x;
  }
  return null;
}

/** 1 / Σw per node, 0 for a node of zero strength (dangling): networkx's row normalisation. */
function inverseStrengths(g: Graph): Float64Array {
  const { offsets, nbrW } = g;
  const out = new Float64Array(g.n);
  for (let v = 0; v < g.n; v++) {
    let s = 0;
    for (let p = offsets[v]; p < offsets[v + 1]; p++) s += nbrW[p];
    out[v] = s !== 0 ? 1 / s : 0;
  }
  return out;
}
