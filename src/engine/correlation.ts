/**
 * Correlation matrices for the network engine (README.md § How the numbers are computed, step 3): Pearson, or Spearman as
 * Pearson on average ranks. Pure functions on typed arrays: the only state is the SIMD kernel's
 * scratch memory (simd/dot-kernel.ts) and the OpenBLAS handle (blas/openblas.ts), which no result refers to.
 */
import { openBlas } from "./blas/openblas.ts";
import { blasCorrelation } from "./correlation-blas.ts";
import { dotWorkspace } from "./simd/dot-kernel.ts";
import type { CorrMethod } from "./types.ts";

/**
 * Who computes the dot products: OpenBLAS (blas/openblas.ts) where it loads, else the WebAssembly
 * kernel (simd/dot-kernel.ts) where it runs, else the scalar loops. "simd" and "scalar" skip the
 * earlier ones (the tests compare all three).
 */
export type CorrelationKernel = "blas" | "simd" | "scalar";

function clip(x: number): number {
  return x > 1 ? 1 : Math.max(x, -1);
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
 * n series (log returns, already checked finite, non-constant), each read from index `start` for
 * `length` values (the window; offsets instead of subarray views, which cost ~3% of a snapshot
 * in bench/engine.bench.ts) -> n*n row-major
 * matrix, diagonal 1, clipped to [-1, 1]. spearman = Pearson on average ranks (ties share the mean rank).
 */
export function correlationMatrix(
  series: Float64Array[],
  method: CorrMethod,
  start = 0,
  length = series.length > 0 ? series[0].length - start : 0,
  kernel: CorrelationKernel = "blas",
): Float64Array {
  const n = series.length;
  const L = length;
  // The WebAssembly kernel and the loops below give bit-identical matrices; OpenBLAS sums in its
  // own order (within rounding of them) and keeps exact ties exact explicitly (correlation-blas.ts).
  const blas = kernel === "blas" && n >= 2 && L >= 1 ? openBlas : null;
  const ws = blas === null && kernel !== "scalar" ? dotWorkspace(n, L) : null;
  // Centre, then rho = sxy / sqrt(sxx * syy): identical series give exactly 1 and rank-negated
  // series exactly -1 (sqrt(v * v) === v), so exact ties stay exact, as in the fixture generator.
  // The kernel reads the centred series k-major (T[k*n + i]), BLAS and the loops row after row.
  const packed = ws ? ws.T : new Float64Array(n * L);
  const si = ws ? 1 : L;
  const sk = ws ? n : 1;
  const ss = ws ? ws.S : new Float64Array(n);
  const ranked = method === "spearman";
  for (let i = 0; i < n; i++) {
    const x = ranked ? averageRanks(series[i].subarray(start, start + L)) : series[i];
    const o = ranked ? 0 : start;
    let mean = 0;
    for (let k = 0; k < L; k++) mean += x[o + k];
    mean /= L;
    const oi = i * si;
    let sq = 0;
    for (let k = 0; k < L; k++) {
      const ck = x[o + k] - mean;
      packed[oi + k * sk] = ck;
      sq += ck * ck;
    }
    ss[i] = sq;
  }
  if (blas) return blasCorrelation(blas, packed, ss, n, L);
  if (ws) {
    ws.dots();
    ws.normalize();
    return ws.D.slice();
  }
  // Centred series packed row after row. Two rows against four columns per sweep (8 dot
  // products from 6 loads per k); each dot product still sums k = 0..L-1 in order, so every entry
  // is bit-identical to the one-at-a-time loop (exact ties stay exact).
  const out = new Float64Array(n * n);
  const put = (i: number, j: number, dot: number) => {
    const r = clip(dot / Math.sqrt(ss[i] * ss[j]));
    out[i * n + j] = r;
    out[j * n + i] = r;
  };
  const dot = (a: number, b: number) => {
    let d = 0;
    for (let k = 0; k < L; k++) d += packed[a + k] * packed[b + k];
    return d;
  };
  let i = 0;
  for (; i + 1 < n; i += 2) {
    out[i * n + i] = 1;
    out[(i + 1) * n + i + 1] = 1;
    const oa = i * L;
    const ob = oa + L;
    put(i, i + 1, dot(oa, ob));
    let j = i + 2;
    for (; j + 3 < n; j += 4) {
      const o0 = j * L;
      const o1 = o0 + L;
      const o2 = o1 + L;
      const o3 = o2 + L;
      let a0 = 0,
        a1 = 0,
        a2 = 0,
        a3 = 0,
        b0 = 0,
        b1 = 0,
        b2 = 0,
        b3 = 0;
      for (let k = 0; k < L; k++) {
        const x = packed[oa + k];
        const y = packed[ob + k];
        const p0 = packed[o0 + k];
        const p1 = packed[o1 + k];
        const p2 = packed[o2 + k];
        const p3 = packed[o3 + k];
        a0 += x * p0;
        a1 += x * p1;
        a2 += x * p2;
        a3 += x * p3;
        b0 += y * p0;
        b1 += y * p1;
        b2 += y * p2;
        b3 += y * p3;
      }
      put(i, j, a0);
      put(i, j + 1, a1);
      put(i, j + 2, a2);
      put(i, j + 3, a3);
      put(i + 1, j, b0);
      put(i + 1, j + 1, b1);
      put(i + 1, j + 2, b2);
      put(i + 1, j + 3, b3);
    }
    for (; j < n; j++) {
      put(i, j, dot(oa, j * L));
      put(i + 1, j, dot(ob, j * L));
    }
  }
  if (i < n) out[i * n + i] = 1;
  return out;
}

/**
 * Pearson correlation matrix from sufficient statistics (a sliding window maintains them):
 * count L, per-series sums s[i], sums of squares ss[i], cross sums sxy[i*n+j]. Only entries
 * with i < j of sxy are read. Same clipping and unit diagonal as correlationMatrix.
 */
export function pearsonFromMoments(L: number, s: Float64Array, ss: Float64Array, sxy: Float64Array, n: number): Float64Array {
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
