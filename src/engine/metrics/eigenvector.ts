/**
 * nx.eigenvector_centrality(G, weight="weight") of networkx 2.8: power iteration on A + I from
 * x0 = 1/n, L2-normalised each step, stopped when Σ|x - x_last| < n·tol.
 *
 * Power iteration alone took up to seconds on graphs whose components have nearly equal top
 * eigenvalues, so after a budget of literal steps the engine replays networkx's stopping rule
 * over each component's Perron pair (Lanczos) instead, and falls back to the literal iteration
 * when its error bound is too large. The derivation: docs/engine.md § Eigenvector centrality.
 */
import type { Graph } from "../graph.ts";
import { connectedComponents } from "./components.ts";
import { perronPair } from "./lanczos.ts";

/** Shared by the engine and the golden-fixture generator (bench/networkx/generate_fixtures.py). */
export const EIGENVECTOR_TOL = 1e-12;
export const EIGENVECTOR_MAX_ITER = 100_000;
/** Largest estimated distance from networkx's answer the fast path may have (spec: 1e-6). */
export const FAST_PATH_MAX_ERROR = 1e-7;
/** Power-iteration steps tried before the Lanczos path: the measured break-even (Lanczos grows with n², a step with n). */
export const powerFirstSteps = (n: number) => Math.round(40_000 / Math.max(n, 40));

/**
 * Centrality per node, or null when the iteration does not converge within maxIter or the
 * graph has no edges (centrality is undefined there).
 */
export function eigenvectorCentrality(g: Graph, tol = EIGENVECTOR_TOL, maxIter = EIGENVECTOR_MAX_ITER): Float64Array | null {
  const n = g.n;
  if (g.src.length === 0 || n === 0) return null;
  // Well-separated spectra converge in a few hundred cheap steps: then the literal iteration is
  // both faster than Lanczos and networkx's exact answer.
  const quick = eigenvectorPowerIteration(g, tol, Math.min(maxIter, powerFirstSteps(n)));
  if (quick !== null) return quick;
  const fast = eigenvectorByModes(g, tol, maxIter);
  return fast === undefined ? eigenvectorPowerIteration(g, tol, maxIter) : fast;
}

interface Mode {
  nodes: Int32Array;
  /** Unit vector over nodes (null: the isolated-node group, each node its own unit mode). */
  vector: Float64Array | null;
  mu: number;
  /** x0 · v for one mode of this group. */
  a: number;
  /** ‖v‖₁ of one mode. */
  l1: number;
  /** Number of identical modes in the group (isolated nodes share one entry). */
  count: number;
}

/**
 * The component-mode replay. Returns the centrality, null when networkx would not converge,
 * or undefined when the replay cannot promise FAST_PATH_MAX_ERROR (then power iteration runs).
 */
export function eigenvectorByModes(g: Graph, tol: number, maxIter: number): Float64Array | null | undefined {
  const n = g.n;
  const modes: Mode[] = [];
  const local = new Int32Array(n);
  const isolated: number[] = [];
  let worst = 0;
  // Components in order of their smallest node; a single node has no edge (no self-loops).
  for (const members of connectedComponents(g).members) {
    if (members.length === 1) {
      isolated.push(members[0]);
      continue;
    }
    const nodes = members.sort(); // ascending, as the literal iteration's sums run
    for (let a = 0; a < nodes.length; a++) local[nodes[a]!] = a;
    const pair = perronPair(g, nodes, local);
    if (pair === null) return undefined;
    let l1 = 0;
    for (const x of pair.vector) l1 += Math.abs(x);
    modes.push({ nodes, vector: pair.vector, mu: pair.value + 1, a: l1 / n, l1, count: 1 });
    worst = Math.max(worst, pair.ratio);
  }
  if (isolated.length > 0) {
    modes.push({ nodes: Int32Array.from(isolated), vector: null, mu: 1, a: 1 / n, l1: 1, count: isolated.length });
  }
  let muMax = 0;
  for (const m of modes) muMax = Math.max(muMax, m.mu);
  // Within-component modes shrink at worst by `worst` relative to their own component, which
  // itself shrinks relative to the top one; `worst` bounds both.
  if ((n * tol * worst) / (1 - worst) > FAST_PATH_MAX_ERROR) return undefined;
  const b = replay(modes, muMax, n * tol, maxIter);
  if (b === null) return null;
  const x = new Float64Array(n);
  modes.forEach((m, c) => {
    for (let a = 0; a < m.nodes.length; a++) x[m.nodes[a]] = m.vector ? b[c] * m.vector[a] : b[c];
  });
  return x;
}

/** Coefficient of each mode at networkx's stopping step, or null if it never stops within maxIter. */
function replay(modes: Mode[], muMax: number, limit: number, maxIter: number): Float64Array | null {
  const C = modes.length;
  const u = Float64Array.from(modes, (m) => m.a);
  const rho = Float64Array.from(modes, (m) => m.mu / muMax);
  const b = new Float64Array(C);
  const prev = new Float64Array(C);
  for (let k = 1; k <= maxIter; k++) {
    let sq = 0;
    for (let c = 0; c < C; c++) {
      u[c] *= rho[c];
      sq += modes[c].count * u[c] * u[c];
    }
    const inv = 1 / Math.sqrt(sq);
    let change = 0;
    for (let c = 0; c < C; c++) {
      b[c] = u[c] * inv;
      change += modes[c].count * modes[c].l1 * Math.abs(b[c] - prev[c]);
      prev[c] = b[c];
    }
    // Step 1 is compared with x0 = 1/n, which never passes for n >= 2 (x1 has unit norm).
    if (k >= 2 && change < limit) return b;
  }
  return null;
}

/**
 * The literal networkx iteration, kept as the fallback and as the reference in tests.
 * Neighbour sums run in ascending index order, the order networkx adds them in.
 */
export function eigenvectorPowerIteration(g: Graph, tol = EIGENVECTOR_TOL, maxIter = EIGENVECTOR_MAX_ITER): Float64Array | null {
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
