/**
 * bootstrap=B (docs/engine.md § Bootstrap): B replicates of one window, each resampling
 * its L return rows with replacement and rebuilding everything downstream, summarised as each
 * answer edge's reliability (Tumminello et al. 2007), each node's 5th/95th percentile per metric
 * and the mean adjusted Rand index of the replicates' communities against the answer's.
 */
import { correlationMatrix } from "./correlation.ts";
import { optionCorrelation, usesOptions } from "./correlation-options.ts";
import { buildGraph, type Graph } from "./graph.ts";
import { louvain } from "./louvain.ts";
import { computeMetrics } from "./metrics/index.ts";
import { filterCorrelation } from "./random-matrix.ts";
import { adjustedRandIndex } from "./sector-agreement.ts";
import { SplitMix64 } from "./splitmix64.ts";
import type { ChartParams, Metric } from "./types.ts";

/** One as-of's bootstrap summary, unrounded. */
export interface RawBootstrap {
  /** Per edge of the answer's graph (its src/dst order): the share of replicates holding it. */
  reliability: Float64Array;
  /** Per requested metric, per node: numpy's linear-interpolation 5th and 95th percentiles; NaN where no replicate has a value. */
  p05: Partial<Record<Metric, Float64Array>>;
  p95: Partial<Record<Metric, Float64Array>>;
  /** Mean adjusted Rand index against the answer's communities (with communities), else null. */
  communityStability: number | null;
}

/**
 * Replicate b's rows: L draws j = ⌊u·L⌋, u the next SplitMix64 output of the state seed·2³² + b
 * taken as (x >>> 11)·2⁻⁵³.
 */
export function replicateRows(seed: number, b: number, L: number, out = new Int32Array(L)): Int32Array {
  const rng = new SplitMix64(seed, b);
  for (let k = 0; k < L; k++) out[k] = Math.floor(rng.nextUnit() * L);
  return out;
}

/** The parameters a replicate rebuilds with. */
export type ReplicateParams = Pick<
  ChartParams,
  "corr_method" | "halflife" | "shrinkage" | "market_mode" | "denoise" | "detone" | "graph_method" | "knn_k" | "corr_threshold" | "metrics"
>;

/** The matrix a window's series give under the correlation options and filters (the answer's own path, without sliding sums). */
export function windowCorrelation(series: Float64Array[], start: number, L: number, p: ReplicateParams): Float64Array {
  const n = series.length;
  const raw = usesOptions(p) ? optionCorrelation(series, start, L, p) : correlationMatrix(series, p.corr_method, start, L);
  // A resampled series can be constant (every drawn row the same value): ρ = 0, the engine's rule for zero variance.
  for (let q = 0; q < raw.length; q++) if (Number.isNaN(raw[q])) raw[q] = q % (n + 1) === 0 ? 1 : 0;
  return filterCorrelation(raw, n, L, { denoise: p.denoise, detone: p.detone, spectrum: false }, true).corr;
}

/** The answer a replicate is compared with: its graph and, with communities, its partition. */
export interface BootstrapAnswer {
  graph: Graph;
  community: Int32Array | null;
}

/**
 * B replicates of the window `series[i][start … start+L−1]`, each rebuilt with `p`; communities
 * (and community_stability) when answer.community is given.
 */
export function bootstrapWindow(
  series: Float64Array[],
  start: number,
  L: number,
  p: ReplicateParams,
  answer: BootstrapAnswer,
  B: number,
  seed: number,
): RawBootstrap {
  const n = series.length;
  const g0 = answer.graph;
  const edgeOf = new Int32Array(n * n).fill(-1);
  for (let e = 0; e < g0.src.length; e++) {
    edgeOf[g0.src[e] * n + g0.dst[e]] = e;
    edgeOf[g0.dst[e] * n + g0.src[e]] = e;
  }
  const held = new Int32Array(g0.src.length);
  const samples = p.metrics.map(() => new Float64Array(B * n));
  let ariSum = 0;
  const rows = new Int32Array(L);
  const resampled = series.map(() => new Float64Array(L));
  for (let b = 0; b < B; b++) {
    replicateRows(seed, b, L, rows);
    for (let i = 0; i < n; i++) {
      const s = series[i];
      const r = resampled[i];
      for (let k = 0; k < L; k++) r[k] = s[start + rows[k]];
    }
    const corr = windowCorrelation(resampled, 0, L, p);
    const g = buildGraph(corr, n, p.graph_method, { knnK: p.knn_k, threshold: p.corr_threshold });
    for (let e = 0; e < g.src.length; e++) {
      const at = edgeOf[g.src[e] * n + g.dst[e]];
      if (at >= 0) held[at]++;
    }
    const m = computeMetrics(g, p.metrics);
    p.metrics.forEach((metric, q) => {
      samples[q].set(m.values[metric]!, b * n);
    });
    if (answer.community) ariSum += adjustedRandIndex(answer.community, louvain(g).community);
  }
  const reliability = Float64Array.from(held, (h) => h / B);
  const p05: RawBootstrap["p05"] = {};
  const p95: RawBootstrap["p95"] = {};
  const column = new Float64Array(B);
  p.metrics.forEach((metric, q) => {
    const lo = new Float64Array(n);
    const hi = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let c = 0;
      for (let b = 0; b < B; b++) {
        const v = samples[q][b * n + i];
        if (Number.isFinite(v)) column[c++] = v;
      }
      const sorted = column.subarray(0, c).sort();
      lo[i] = percentileLinear(sorted, 0.05);
      hi[i] = percentileLinear(sorted, 0.95);
    }
    p05[metric] = lo;
    p95[metric] = hi;
  });
  return { reliability, p05, p95, communityStability: answer.community ? ariSum / B : null };
}

/**
 * numpy.percentile's default (method="linear") on ascending values: the virtual index h = (m−1)·q,
 * interpolated between its neighbours as numpy's _lerp does; NaN for no values.
 */
export function percentileLinear(sorted: Float64Array, q: number): number {
  const m = sorted.length;
  if (m === 0) return NaN;
  const h = (m - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, m - 1);
  const t = h - lo;
  const a = sorted[lo];
  const b = sorted[hi];
  const diff = b - a;
  return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
}
