/**
 * Random-matrix filtering of a window's correlation matrix (docs/engine.md
 * § Random-matrix filtering): the spectrum and its Marchenko–Pastur edge, denoise=mp (Laloux et al. 1999; López de
 * Prado's constant-residual-eigenvalue method) and detone=k. Each step reads the matrix it is given
 * and returns a new one, so the order correlation → shrinkage → denoise → detone → graph is the
 * caller's (chart.ts).
 */
import { kernelRebuild } from "./simd/denoise-kernel.ts";
import { type Leading, type TopEigen, topEigen, topEigenBatch } from "./top-eigen.ts";

/** Eigenvalues (descending) and, as rows, unit eigenvectors of at least the leading ones a filter reads. */
export interface Eigen {
  values: Float64Array;
  vectors: Float64Array | null;
}

/** What the filters are asked for (ChartParams' subset). */
export interface FilterOptions {
  denoise: "none" | "mp";
  detone: number;
  spectrum: boolean;
}

/** One as-of's spectrum, unrounded. */
export interface RawSpectrum {
  /** Of the matrix entering the filters (after shrinkage), descending. */
  eigenvalues: Float64Array;
  lambdaPlus: number;
  nAbove: number;
  absorptionRatio: number;
}

/**
 * A remaining variance at or below this (the diagonal of a unit-diagonal matrix after detoning, or
 * of a rebuilt one) counts as none: the series then gets ρ = 0 with every other, rather than the
 * ratio of two rounding errors.
 */
export const VANISHED_VARIANCE = 1e-12;

/** λ₊ = (1 + √(n/L))², the upper edge of the Marchenko–Pastur law for σ² = 1, n series of L returns. */
export function marchenkoPasturEdge(n: number, L: number): number {
  return (1 + Math.sqrt(n / L)) ** 2;
}

/** How many of the descending `values` lie strictly above λ₊. */
export function aboveEdge(values: Float64Array, n: number, L: number): number {
  const lambdaPlus = marchenkoPasturEdge(n, L);
  let k = 0;
  while (k < n && values[k] > lambdaPlus) k++;
  return k;
}

/** The spectrum summary of descending eigenvalues `values` of an n×n correlation from L returns. */
export function spectrumOf(values: Float64Array, n: number, L: number): RawSpectrum {
  const lambdaPlus = marchenkoPasturEdge(n, L);
  const nAbove = aboveEdge(values, n, L);
  const top = Math.ceil(n / 5);
  let sum = 0;
  for (let k = 0; k < top; k++) sum += values[k];
  return { eigenvalues: values, lambdaPlus, nAbove, absorptionRatio: sum / n };
}

/**
 * denoise=mp: eigenvalues above λ₊ kept, the others replaced by their mean μ (so the trace is
 * kept), rebuilt as C′ = μI + Σ_{λᵢ>λ₊} (λᵢ − μ) vᵢvᵢᵀ (= V diag(λ′) Vᵀ, since VVᵀ = I), rescaled to a
 * unit diagonal, clipped to [−1, 1]. Each λᵢ − μ ≥ 0 (the values descend), so with
 * uᵢ = √(λᵢ − μ)·vᵢ / √diag(C′) the rescaled off-diagonal is Σᵢ uᵢuᵢᵀ: one pass of k products per
 * cell, with no n×n intermediate. `out` is written over (filterCorrelation passes the matrix it
 * was given when the caller no longer needs it, whose memory is still in cache).
 */
export function denoiseMp(eig: Eigen, n: number, L: number, out: Float64Array = new Float64Array(n * n)): Float64Array {
  const { values } = eig;
  const vectors = eig.vectors!;
  const kept = aboveEdge(values, n, L);
  let rest = 0;
  for (let k = kept; k < n; k++) rest += values[k];
  const mu = kept < n ? rest / (n - kept) : 0;
  if (kept === 0) {
    // μI rescaled: the identity.
    out.fill(0);
    for (let i = 0; i < n; i++) out[i * n + i] = 1;
    return out;
  }
  // u_q = √(λ_q − μ)·v_q, the rebuilt diagonal beside it, then each u_q scaled by 1/√diag (0 where the variance vanished).
  const u = new Float64Array(kept * n);
  const scale = new Float64Array(n).fill(mu);
  for (let q = 0; q < kept; q++) {
    const w = Math.sqrt(Math.max(values[q] - mu, 0));
    const o = q * n;
    for (let i = 0; i < n; i++) {
      const x = w * vectors[o + i];
      u[o + i] = x;
      scale[i] += x * x;
    }
  }
  for (let i = 0; i < n; i++) {
    const c = scale[i];
    scale[i] = c > VANISHED_VARIANCE ? 1 / Math.sqrt(c) : 0;
  }
  for (let q = 0; q < kept; q++) for (let i = 0; i < n; i++) u[q * n + i] *= scale[i];
  // Every cell in the SIMD kernel where it runs, else the same loop in JavaScript.
  if (!kernelRebuild(u, kept, n, out)) rebuildCells(u, kept, n, out);
  return out;
}

/**
 * out[i·n + j] = Σ_q u_q[i]·u_q[j] for the k ≥ 1 rows of `u`, clipped to [−1, 1], diagonal 1:
 * denoiseMp's last pass in JavaScript (the kernel's fallback and its reference). Row by row, every
 * cell: uᵢuⱼ and uⱼuᵢ are the same double, so the matrix is symmetric without a mirroring pass.
 * The first two components are summed in registers and clipped in the same pass (denoise keeps
 * one to three on NIFTY-50 windows); each further one is another pass over the row. The clip
 * compares rather than calls Math.max: the same value (NaN included), a fifth less time.
 */
export function rebuildCells(u: Float64Array, kept: number, n: number, out: Float64Array): void {
  const u1 = kept > 1 ? n : 0;
  for (let i = 0; i < n; i++) {
    const ri = i * n;
    const a = u[i];
    const b = kept > 1 ? u[u1 + i] : 0;
    if (kept <= 2) {
      for (let j = 0; j < n; j++) {
        const r = a * u[j] + b * u[u1 + j];
        // biome-ignore lint/complexity/useMathMinMax: the comparison is the clip's whole cost here, and Math.max costs more.
        out[ri + j] = r > 1 ? 1 : r < -1 ? -1 : r;
      }
    } else {
      for (let j = 0; j < n; j++) out[ri + j] = a * u[j] + b * u[u1 + j];
      for (let q = 2; q < kept; q++) {
        const o = q * n;
        const uq = u[o + i];
        for (let j = 0; j < n; j++) out[ri + j] += uq * u[o + j];
      }
      for (let j = 0; j < n; j++) {
        const r = out[ri + j];
        // biome-ignore lint/complexity/useMathMinMax: as above.
        out[ri + j] = r > 1 ? 1 : r < -1 ? -1 : r;
      }
    }
    out[ri + i] = 1;
  }
}

/**
 * detone=k: the k leading components λᵢvᵢvᵢᵀ removed (all of them when k ≥ n), rescaled to a unit
 * diagonal, clipped to [−1, 1]. `eig` is the decomposition of the matrix being detoned.
 */
export function detone(eig: Eigen, n: number, k: number, matrix: Float64Array): Float64Array {
  const m = Math.min(k, n);
  const weights = new Float64Array(m);
  for (let q = 0; q < m; q++) weights[q] = -eig.values[q];
  const out = lowRank(eig.vectors!, n, weights, 0);
  for (let q = 0; q < out.length; q++) out[q] += matrix[q];
  return unitDiagonal(out, n);
}

/** diag·I + Σ_q weights[q] v_q v_qᵀ over the leading rows of `vectors`, symmetric by construction. */
function lowRank(vectors: Float64Array, n: number, weights: Float64Array, diag: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      let s = i === j ? diag : 0;
      for (let q = 0; q < weights.length; q++) s += weights[q] * vectors[q * n + i] * vectors[q * n + j];
      out[i * n + j] = s;
      out[j * n + i] = s;
    }
  }
  return out;
}

/** c_ij / √(c_ii c_jj), clipped to [−1, 1], diagonal exactly 1; a vanished variance gives ρ = 0 (VANISHED_VARIANCE). */
function unitDiagonal(c: Float64Array, n: number): Float64Array {
  const sd = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = c[i * n + i];
    sd[i] = v > VANISHED_VARIANCE ? Math.sqrt(v) : 0;
  }
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    out[i * n + i] = 1;
    for (let j = i + 1; j < n; j++) {
      const r = sd[i] > 0 && sd[j] > 0 ? c[i * n + j] / (sd[i] * sd[j]) : 0;
      const clipped = r > 1 ? 1 : Math.max(r, -1);
      out[i * n + j] = clipped;
      out[j * n + i] = clipped;
    }
  }
  return out;
}

/** What filterCorrelation returns: the matrix the graph is built from, and the spectrum when asked. */
export interface Filtered {
  corr: Float64Array;
  spectrum: RawSpectrum | null;
}

/** Whether the filters decompose the matrix (and so whether filterCorrelationBatch gains anything). */
export function decomposes(o: FilterOptions): boolean {
  return o.denoise === "mp" || o.detone > 0 || o.spectrum;
}

/**
 * The filters of one window, in order: the spectrum of `corr` (with spectrum), then denoise, then
 * detone. One decomposition of `corr` serves the spectrum, denoise and (without denoise) detone;
 * detone after denoise decomposes the denoised matrix. Returns `corr` itself when nothing filters.
 * With `reuse`, `corr` is the caller's own fresh matrix, no longer needed: denoise writes over it.
 */
export function filterCorrelation(corr: Float64Array, n: number, L: number, o: FilterOptions, reuse = false): Filtered {
  if (!decomposes(o)) return { corr, spectrum: null };
  return afterDecomposition(corr, topEigen(corr, n, leading(n, L, o)), n, L, o, reuse);
}

/**
 * filterCorrelation of several windows of one size and length, each the same bit for bit: their
 * decompositions run together (topEigenBatch), which takes less time than one after the other.
 */
export function filterCorrelationBatch(corrs: readonly Float64Array[], n: number, L: number, o: FilterOptions, reuse = false): Filtered[] {
  if (!decomposes(o)) return corrs.map((c) => filterCorrelation(c, n, L, o, reuse));
  const eigs = topEigenBatch(corrs, n, leading(n, L, o));
  return corrs.map((c, q) => afterDecomposition(c, eigs[q], n, L, o, reuse));
}

/** Only the vectors a filter reads: those above λ₊ for denoise, the leading `detone` for detone alone. */
function leading(n: number, L: number, o: FilterOptions): Leading {
  return o.denoise === "mp" ? (values) => aboveEdge(values, n, L) : o.detone;
}

function afterDecomposition(corr: Float64Array, eig: TopEigen, n: number, L: number, o: FilterOptions, reuse: boolean): Filtered {
  const spectrum = o.spectrum ? spectrumOf(eig.values, n, L) : null;
  let out = corr;
  let outEig: Eigen = eig;
  if (o.denoise === "mp") {
    out = denoiseMp(eig, n, L, reuse ? corr : undefined);
    if (o.detone > 0) outEig = topEigen(out, n, o.detone);
  }
  if (o.detone > 0) out = detone(outEig, n, o.detone, out);
  return { corr: out, spectrum };
}
