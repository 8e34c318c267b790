import type { Graph } from "../graph.ts";

/** Shared by the engine and the golden-fixture generator (bench/networkx/generate_fixtures.py). */
export const EIGENVECTOR_TOL = 1e-12;
export const EIGENVECTOR_MAX_ITER = 100_000;

/**
 * nx.eigenvector_centrality(G, weight="weight") of networkx 2.8, replicated step for step:
 * start at 1/n, x <- (A + I) x with weights w, L2-normalise, stop when Σ|x - x_last| < n·tol.
 * Neighbour sums run in ascending index order, the order networkx adds them in.
 * Returns null when it does not converge within maxIter, or when the graph has no edges
 * (centrality is undefined there).
 */
export function eigenvectorCentrality(
  g: Graph,
  tol = EIGENVECTOR_TOL,
  maxIter = EIGENVECTOR_MAX_ITER,
): Float64Array | null {
  const n = g.n;
  if (g.src.length === 0 || n === 0) return null;
  const { offsets, nbr, nbrW } = g;
  let x = new Float64Array(n).fill(1 / n);
  let next = new Float64Array(n);
  for (let it = 0; it < maxIter; it++) {
    for (let v = 0; v < n; v++) {
      let s = x[v];
      for (let p = offsets[v]; p < offsets[v + 1]; p++) s += x[nbr[p]] * nbrW[p];
      next[v] = s;
    }
    let sq = 0;
    for (let v = 0; v < n; v++) sq += next[v] * next[v];
    const norm = Math.sqrt(sq) || 1;
    let err = 0;
    for (let v = 0; v < n; v++) {
      next[v] /= norm;
      err += Math.abs(next[v] - x[v]);
    }
    const t = x;
    x = next;
    next = t;
    if (err < n * tol) return x;
  }
  return null;
}
