/**
 * The cleaner correlations of issue 15 on one window of log returns: market_mode=remove (OLS
 * residuals on the equal-weighted market return), corr_method=ewma (pandas' ewm(halflife).corr())
 * and shrinkage=ledoit_wolf (sklearn's LedoitWolf). Formulas, and why the equal-weighted market
 * rather than the first principal component: docs/engine.md § Correlation. Issue 26's
 * corr_method=kendall (τ-b) and corr_method=distance (distance correlation) also come through here.
 */
import { correlationMatrix } from "./correlation.ts";
import { distanceCorrelationMatrix } from "./distance-correlation.ts";
import { kendallMatrix } from "./kendall.ts";
import type { ChartParams } from "./types.ts";

type Options = Pick<ChartParams, "corr_method" | "halflife" | "shrinkage" | "market_mode">;

/** True when the options leave the plain Pearson/Spearman path (and its sliding moments). */
export function usesOptions(p: Options): boolean {
  return (p.corr_method !== "pearson" && p.corr_method !== "spearman") || p.shrinkage !== "none" || p.market_mode !== "keep";
}

/** True when each window's series are replaced by market residuals (they then cannot slide from one window to the next). */
export const usesResiduals = (p: Options): boolean => p.market_mode === "remove";

/** n×n row-major correlation of the series' values start … start+L−1 under the options. */
export function optionCorrelation(series: Float64Array[], start: number, L: number, p: Options): Float64Array {
  let x = series;
  let o = start;
  if (p.market_mode === "remove") {
    x = marketResiduals(series, start, L);
    o = 0;
  }
  let c: Float64Array;
  if (p.corr_method === "ewma") c = ewmaCorrelation(x, o, L, p.halflife);
  else if (p.corr_method === "kendall") c = kendallMatrix(x, o, L);
  else if (p.corr_method === "distance") c = distanceCorrelationMatrix(x, o, L);
  else if (p.shrinkage === "ledoit_wolf") c = ledoitWolfCorrelation(x, o, L);
  else c = correlationMatrix(x, p.corr_method, o, L);
  // A residual can be constant (two symbols: each is minus the other's); its ρ is 0/0.
  for (let k = 0; k < c.length; k++) if (Number.isNaN(c[k])) c[k] = 0;
  return c;
}

/** OLS residuals e_i = r_i − a_i − b_i·m on the equal-weighted mean return m. */
export function marketResiduals(series: Float64Array[], start: number, L: number): Float64Array[] {
  const n = series.length;
  const m = new Float64Array(L);
  for (const s of series) for (let k = 0; k < L; k++) m[k] += s[start + k];
  let mMean = 0;
  for (let k = 0; k < L; k++) {
    m[k] /= n;
    mMean += m[k];
  }
  mMean /= L;
  let mss = 0;
  for (let k = 0; k < L; k++) mss += (m[k] - mMean) ** 2;
  return series.map((s) => {
    let mean = 0;
    for (let k = 0; k < L; k++) mean += s[start + k];
    mean /= L;
    let sxy = 0;
    for (let k = 0; k < L; k++) sxy += (s[start + k] - mean) * (m[k] - mMean);
    const b = mss > 0 ? sxy / mss : 0;
    return Float64Array.from({ length: L }, (_, k) => s[start + k] - mean - b * (m[k] - mMean));
  });
}

function clip(x: number): number {
  return x > 1 ? 1 : Math.max(x, -1);
}

/** ρ_ij = cov_ij / sqrt(cov_ii cov_jj) for row-major covariance-like sums c (n×n). */
function normalise(c: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    out[i * n + i] = 1;
    for (let j = i + 1; j < n; j++) {
      const r = clip(c[i * n + j] / Math.sqrt(c[i * n + i] * c[j * n + j]));
      out[i * n + j] = r;
      out[j * n + i] = r;
    }
  }
  return out;
}

/** Σ_k y_ik y_jk for every pair (the upper triangle and diagonal; mirrored). */
function crossProducts(y: Float64Array[], L: number): Float64Array {
  const n = y.length;
  const c = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const a = y[i];
    for (let j = i; j < n; j++) {
      const b = y[j];
      let s = 0;
      for (let k = 0; k < L; k++) s += a[k] * b[k];
      c[i * n + j] = s;
      c[j * n + i] = s;
    }
  }
  return c;
}

/**
 * Weighted Pearson with w_k = 2^(−(L−1−k)/h) (newest weight 1): μ_i = Σ w x / Σ w, and
 * ρ_ij = Σ w (x_i−μ_i)(x_j−μ_j) / sqrt(…ii · …jj). pandas' bias correction is a common factor, so it cancels.
 */
export function ewmaCorrelation(series: Float64Array[], start: number, L: number, halflife: number): Float64Array {
  const w = Float64Array.from({ length: L }, (_, k) => 2 ** (-(L - 1 - k) / halflife));
  let wSum = 0;
  for (let k = 0; k < L; k++) wSum += w[k];
  const y = series.map((s) => {
    let mean = 0;
    for (let k = 0; k < L; k++) mean += w[k] * s[start + k];
    mean /= wSum;
    return Float64Array.from({ length: L }, (_, k) => Math.sqrt(w[k]) * (s[start + k] - mean));
  });
  return normalise(crossProducts(y, L), series.length);
}

/**
 * sklearn.covariance.ledoit_wolf on the centred window X (L samples × p series): S = XᵀX/L,
 * μ = tr(S)/p, δ = ‖S − μI‖²_F/p, β = min(δ, (Σ_k (Σ_i x_ki²)²/L − ‖S‖²_F)/(pL)), shrinkage
 * s = β/δ (0 when β = 0), Σ = (1−s)S + sμI; then ρ from Σ.
 */
export function ledoitWolfCorrelation(series: Float64Array[], start: number, L: number): Float64Array {
  const p = series.length;
  const x = series.map((s) => {
    let mean = 0;
    for (let k = 0; k < L; k++) mean += s[start + k];
    mean /= L;
    return Float64Array.from({ length: L }, (_, k) => s[start + k] - mean);
  });
  const S = crossProducts(x, L);
  for (let q = 0; q < S.length; q++) S[q] /= L;
  let trace = 0;
  for (let i = 0; i < p; i++) trace += S[i * p + i];
  const mu = trace / p;
  let frob = 0;
  for (let q = 0; q < S.length; q++) frob += S[q] * S[q];
  let beta_ = 0;
  for (let k = 0; k < L; k++) {
    let row = 0;
    for (let i = 0; i < p; i++) row += x[i][k] * x[i][k];
    beta_ += row * row;
  }
  let beta = (beta_ / L - frob) / (p * L);
  const delta = (frob - 2 * mu * trace + p * mu * mu) / p;
  beta = Math.min(beta, delta);
  const s = beta === 0 ? 0 : beta / delta;
  for (let q = 0; q < S.length; q++) S[q] *= 1 - s;
  for (let i = 0; i < p; i++) S[i * p + i] += s * mu;
  return normalise(S, p);
}
