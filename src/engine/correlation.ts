/**
 * Correlation matrices for the network engine (DECISIONS §2.3): Pearson, or Spearman as
 * Pearson on average ranks. Pure functions on typed arrays.
 */
import type { CorrMethod } from "./types.ts";

function clip(x: number): number {
  return x > 1 ? 1 : x < -1 ? -1 : x;
}

/** Average ranks (1-based); equal values share the mean of their positions, as pandas/scipy do. */
export function averageRanks(x: Float64Array): Float64Array {
  const L = x.length;
  const order = Array.from({ length: L }, (_, k) => k).sort((a, b) => x[a] - x[b] || a - b);
  const ranks = new Float64Array(L);
  let k = 0;
  while (k < L) {
    let e = k;
    while (e + 1 < L && x[order[e + 1]] === x[order[k]]) e++;
    const r = (k + e) / 2 + 1;
    for (let q = k; q <= e; q++) ranks[order[q]] = r;
    k = e + 1;
  }
  return ranks;
}

/**
 * n series of equal length L (log returns, already checked finite, non-constant) -> n*n row-major
 * matrix, diagonal 1, clipped to [-1, 1]. spearman = Pearson on average ranks (ties share the mean rank).
 */
export function correlationMatrix(series: Float64Array[], method: CorrMethod): Float64Array {
  const n = series.length;
  const L = n > 0 ? series[0].length : 0;
  // Centre, then rho = sxy / sqrt(sxx * syy): identical series give exactly 1 and rank-negated
  // series exactly -1 (sqrt(v * v) === v), so exact ties stay exact, as in the fixture generator.
  const c: Float64Array[] = new Array(n);
  const ss = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = method === "spearman" ? averageRanks(series[i]) : series[i];
    let mean = 0;
    for (let k = 0; k < L; k++) mean += x[k];
    mean /= L;
    const ci = new Float64Array(L);
    let sq = 0;
    for (let k = 0; k < L; k++) {
      ci[k] = x[k] - mean;
      sq += ci[k] * ci[k];
    }
    c[i] = ci;
    ss[i] = sq;
  }
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    out[i * n + i] = 1;
    const ci = c[i];
    for (let j = i + 1; j < n; j++) {
      const cj = c[j];
      let dot = 0;
      for (let k = 0; k < L; k++) dot += ci[k] * cj[k];
      const r = clip(dot / Math.sqrt(ss[i] * ss[j]));
      out[i * n + j] = r;
      out[j * n + i] = r;
    }
  }
  return out;
}

/**
 * Pearson correlation matrix from sufficient statistics (a sliding window maintains them):
 * count L, per-series sums s[i], sums of squares ss[i], cross sums sxy[i*n+j]. Only entries
 * with i < j of sxy are read. Same clipping and unit diagonal as correlationMatrix.
 */
export function pearsonFromMoments(
  L: number,
  s: Float64Array,
  ss: Float64Array,
  sxy: Float64Array,
  n: number,
): Float64Array {
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) v[i] = ss[i] - (s[i] * s[i]) / L;
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    out[i * n + i] = 1;
    for (let j = i + 1; j < n; j++) {
      const cov = sxy[i * n + j] - (s[i] * s[j]) / L;
      const r = clip(cov / Math.sqrt(v[i] * v[j]));
      out[i * n + j] = r;
      out[j * n + i] = r;
    }
  }
  return out;
}
