/**
 * Distance correlation (Székely, Rizzo, Bakirov 2007; corr_method=distance) for every pair of
 * series, V-statistic form: A, B the double-centred distance matrices of x and y,
 * dCor² = ⟨A, B⟩ / √(⟨A, A⟩⟨B, B⟩). That is the cosine of A and B read as vectors, so each series'
 * A is built once (upper triangle, O(L²)) and all pairs are one Gram matrix, computed where
 * correlationMatrix computes its own (OpenBLAS, the WebAssembly kernel, or scalar loops).
 * Derivation, memory bound: docs/engine.md § Distance correlation.
 */
import { openBlas } from "./blas/openblas.ts";
import type { CorrelationKernel } from "./correlation.ts";
import { blasCorrelation } from "./correlation-blas.ts";
import { dotWorkspace } from "./simd/dot-kernel.ts";

/** Most bytes of centred distance matrices held at once; past it, pairs of column blocks (scalar). */
export const MAX_DISTANCE_BYTES = 64 * 2 ** 20;

/**
 * The upper triangle of x's double-centred distance matrix A into v[at …] (L(L+1)/2 values,
 * row by row), diagonal scaled by 1/√2: then ⟨v_x, v_y⟩ = ⟨A, B⟩/2, and the factor cancels in the
 * cosine. Returns ⟨v, v⟩ summed in order (0 exactly for a constant series).
 */
function centredDistances(x: Float64Array, start: number, L: number, v: Float64Array, at: number, rowMean: Float64Array): number {
  let grand = 0;
  for (let k = 0; k < L; k++) {
    const xk = x[start + k];
    let s = 0;
    for (let l = 0; l < L; l++) s += Math.abs(xk - x[start + l]);
    rowMean[k] = s / L;
    grand += s;
  }
  grand /= L * L;
  let ss = 0;
  let p = at;
  for (let k = 0; k < L; k++) {
    const xk = x[start + k];
    const mk = rowMean[k] - grand;
    const d = (-rowMean[k] - mk) * Math.SQRT1_2;
    v[p++] = d;
    ss += d * d;
    for (let l = k + 1; l < L; l++) {
      const a = Math.abs(xk - x[start + l]) - mk - rowMean[l];
      v[p++] = a;
      ss += a * a;
    }
  }
  return ss;
}

/**
 * n series (start/length as in correlationMatrix) -> n*n row-major distance correlation matrix in
 * [0, 1], diagonal 1. A constant series has distance variance 0: its distance correlation with
 * every other series is 0 (the paper's convention, and the engine's rule for zero variance).
 */
export function distanceCorrelationMatrix(
  series: Float64Array[],
  start = 0,
  length = series.length > 0 ? series[0].length - start : 0,
  kernel: CorrelationKernel = "blas",
): Float64Array {
  const n = series.length;
  const L = length;
  const M = (L * (L + 1)) / 2;
  const rowMean = new Float64Array(L);
  const ss = new Float64Array(n);
  let cos: Float64Array;
  if (n * M * 8 > MAX_DISTANCE_BYTES) cos = blockedCosines(series, start, L, ss, rowMean);
  else {
    const blas = kernel === "blas" && n >= 2 && M >= 1 ? openBlas : null;
    const ws = blas === null && kernel !== "scalar" && n >= 2 ? dotWorkspace(n, M) : null;
    if (ws) {
      // The kernel reads the vectors k-major (T[k*n + i]).
      const v = new Float64Array(M);
      for (let i = 0; i < n; i++) {
        ss[i] = centredDistances(series[i], start, L, v, 0, rowMean);
        ws.S[i] = ss[i];
        for (let k = 0; k < M; k++) ws.T[k * n + i] = v[k];
      }
      ws.dots();
      ws.normalize();
      cos = ws.D.slice();
    } else {
      const packed = new Float64Array(n * M);
      for (let i = 0; i < n; i++) ss[i] = centredDistances(series[i], start, L, packed, i * M, rowMean);
      cos = blas ? blasCorrelation(blas, packed, ss, n, M) : scalarCosines(packed, ss, n, M);
    }
  }
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    out[i * n + i] = 1;
    for (let j = i + 1; j < n; j++) {
      const c = cos[i * n + j];
      // ⟨A, B⟩ ≥ 0 in exact arithmetic; rounding can leave a tiny negative, and a constant series 0/0.
      const r = ss[i] === 0 || ss[j] === 0 || !(c > 0) ? 0 : Math.sqrt(Math.min(1, c));
      out[i * n + j] = r;
      out[j * n + i] = r;
    }
  }
  return out;
}

/** Upper-triangle cosines of the packed rows, each dot product summed in order. */
function scalarCosines(packed: Float64Array, ss: Float64Array, n: number, M: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const a = i * M;
    for (let j = i + 1; j < n; j++) {
      const b = j * M;
      let d = 0;
      for (let k = 0; k < M; k++) d += packed[a + k] * packed[b + k];
      out[i * n + j] = d / Math.sqrt(ss[i] * ss[j]);
    }
  }
  return out;
}

/**
 * The same cosines with at most MAX_DISTANCE_BYTES of vectors in memory: blocks of columns, each
 * pair of blocks side by side (a block's vectors are rebuilt per pair, O(L²) against the pair's
 * O(block² · L²) of dot products).
 */
function blockedCosines(series: Float64Array[], start: number, L: number, ss: Float64Array, rowMean: Float64Array): Float64Array {
  const n = series.length;
  const M = (L * (L + 1)) / 2;
  const B = Math.max(1, Math.floor(MAX_DISTANCE_BYTES / (16 * M)));
  const out = new Float64Array(n * n);
  const vp = new Float64Array(B * M);
  const vq = new Float64Array(B * M);
  for (let p0 = 0; p0 < n; p0 += B) {
    const p1 = Math.min(n, p0 + B);
    for (let i = p0; i < p1; i++) ss[i] = centredDistances(series[i], start, L, vp, (i - p0) * M, rowMean);
    for (let q0 = p0; q0 < n; q0 += B) {
      const q1 = Math.min(n, q0 + B);
      const same = q0 === p0;
      if (!same) for (let j = q0; j < q1; j++) centredDistances(series[j], start, L, vq, (j - q0) * M, rowMean);
      const right = same ? vp : vq;
      for (let i = p0; i < p1; i++) {
        const a = (i - p0) * M;
        for (let j = Math.max(q0, i + 1); j < q1; j++) {
          const b = (j - q0) * M;
          let d = 0;
          for (let k = 0; k < M; k++) d += vp[a + k] * right[b + k];
          out[i * n + j] = d;
        }
      }
    }
  }
  // ss of the later blocks are set on their own p-pass, before any use below.
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) out[i * n + j] /= Math.sqrt(ss[i] * ss[j]);
  return out;
}
