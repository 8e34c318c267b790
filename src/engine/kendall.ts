/**
 * Kendall's τ-b for every pair of series (corr_method=kendall), as scipy.stats.kendalltau computes
 * it: Knight's O(L log L) per pair — order by x (then y), count discordant pairs as the inversions
 * of a merge sort on y — with the tie corrections for x, y and joint ties. Counts are exact
 * integers and the final expression is scipy's, so results agree to the last bits.
 * Formula, constant series: docs/engine.md § Kendall tau.
 */

/** Per series: the order of the window's values (ties by position) and their dense ranks. */
interface Ranked {
  order: Int32Array;
  rank: Int32Array;
  /** Σ t(t − 1)/2 over groups of t equal values. */
  ties: number;
  hasTies: boolean;
}

function rankSeries(x: Float64Array, start: number, L: number): Ranked {
  const order = Int32Array.from({ length: L }, (_, k) => k).sort((a, b) => x[start + a] - x[start + b] || a - b);
  const rank = new Int32Array(L);
  let ties = 0;
  let r = 0;
  let k = 0;
  while (k < L) {
    let e = k;
    while (e + 1 < L && x[start + order[e + 1]] === x[start + order[k]]) e++;
    const t = e - k + 1;
    ties += (t * (t - 1)) / 2;
    for (let q = k; q <= e; q++) rank[order[q]] = r;
    r++;
    k = e + 1;
  }
  return { order, rank, ties, hasTies: ties > 0 };
}

/**
 * n series (start/length as in correlationMatrix) -> n*n row-major τ-b matrix, diagonal 1. A
 * constant series (τ-b is 0/0; scipy returns nan) gets 0 against every other series, the engine's
 * rule for a zero-variance series.
 */
export function kendallMatrix(series: Float64Array[], start = 0, length = series.length > 0 ? series[0].length - start : 0): Float64Array {
  const n = series.length;
  const L = length;
  const out = new Float64Array(n * n);
  const ranked = series.map((s) => rankSeries(s, start, L));
  const tot = (L * (L - 1)) / 2;
  const y = new Int32Array(L);
  const buf = new Int32Array(L);
  for (let a = 0; a < n; a++) {
    out[a * n + a] = 1;
    const ra = ranked[a];
    for (let b = a + 1; b < n; b++) {
      const rb = ranked[b];
      let tau = 0;
      if (ra.ties < tot && rb.ties < tot) {
        // y in x order; within a run of equal x, ascending y (pairs tied in x are not discordant).
        for (let k = 0; k < L; k++) y[k] = rb.rank[ra.order[k]];
        let joint = 0;
        if (ra.hasTies) {
          let k = 0;
          while (k < L) {
            let e = k;
            const xr = ra.rank[ra.order[k]];
            while (e + 1 < L && ra.rank[ra.order[e + 1]] === xr) e++;
            if (e > k) {
              insertionSort(y, k, e + 1);
              if (rb.hasTies) joint += jointTies(y, k, e + 1);
            }
            k = e + 1;
          }
        }
        const dis = inversions(y, buf, L);
        const conMinusDis = tot - ra.ties - rb.ties + joint - 2 * dis;
        // scipy's expression and order of operations (variant 'b'), then its clip to [−1, 1].
        tau = conMinusDis / Math.sqrt(tot - ra.ties) / Math.sqrt(tot - rb.ties);
        tau = Math.min(1, Math.max(-1, tau));
      }
      out[a * n + b] = tau;
      out[b * n + a] = tau;
    }
  }
  return out;
}

function insertionSort(y: Int32Array, from: number, to: number): void {
  for (let k = from + 1; k < to; k++) {
    const v = y[k];
    let p = k - 1;
    while (p >= from && y[p] > v) {
      y[p + 1] = y[p];
      p--;
    }
    y[p + 1] = v;
  }
}

/** Σ c(c − 1)/2 over runs of c equal values in the sorted slice y[from, to). */
function jointTies(y: Int32Array, from: number, to: number): number {
  let s = 0;
  let k = from;
  while (k < to) {
    let e = k;
    while (e + 1 < to && y[e + 1] === y[k]) e++;
    const c = e - k + 1;
    s += (c * (c - 1)) / 2;
    k = e + 1;
  }
  return s;
}

/** Pairs k < l with y[k] > y[l] (strictly), by a bottom-up merge sort; sorts y. */
function inversions(y: Int32Array, buf: Int32Array, L: number): number {
  let inv = 0;
  let src = y;
  let dst = buf;
  for (let width = 1; width < L; width *= 2) {
    for (let lo = 0; lo < L; lo += 2 * width) {
      const mid = Math.min(lo + width, L);
      const hi = Math.min(lo + 2 * width, L);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        if (src[i] <= src[j]) dst[k++] = src[i++];
        else {
          inv += mid - i;
          dst[k++] = src[j++];
        }
      }
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    const t = src;
    src = dst;
    dst = t;
  }
  return inv;
}
