import type { Graph } from "../graph.ts";

export const PAGERANK_ALPHA = 0.85;
export const PAGERANK_TOL = 1e-12;
export const PAGERANK_MAX_ITER = 100_000;

/**
 * nx.pagerank(G, alpha=0.85, weight="weight") (networkx 2.8's scipy iteration): each node spreads
 * its score over its edges in proportion to w; nodes of zero strength (dangling) spread theirs
 * uniformly. Stops when Σ|x - x_last| < n·tol; null if that never happens within maxIter.
 */
export function pagerank(
  g: Graph,
  alpha = PAGERANK_ALPHA,
  tol = PAGERANK_TOL,
  maxIter = PAGERANK_MAX_ITER,
): Float64Array | null {
  const n = g.n;
  if (n === 0) return new Float64Array(0);
  const { offsets, nbr, nbrW } = g;
  const invStrength = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    let s = 0;
    for (let p = offsets[v]; p < offsets[v + 1]; p++) s += nbrW[p];
    invStrength[v] = s !== 0 ? 1 / s : 0;
  }
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
