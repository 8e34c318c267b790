/**
 * Kendall's τ-b for every pair of series (corr_method=kendall), as scipy.stats.kendalltau computes
 * it: Knight's O(L log L) per pair — order by x (then y), count discordant pairs as the inversions
 * of y (a Fenwick tree over ranks) — with the tie corrections for x, y and joint ties. Counts are
 * exact integers and the final expression is scipy's, so results agree to the last bits. Rolling
 * windows: SlidingKendall moves the same counts bar by bar. Formula, constant series, the sliding
 * update: docs/engine.md § Kendall tau.
 */
import type { CorrelationKernel } from "./correlation.ts";
import { dotWorkspace } from "./simd/dot-kernel.ts";

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
  const tree = new Int32Array(L + 1);
  for (let a = 0; a < n; a++) {
    out[a * n + a] = 1;
    const ra = ranked[a];
    for (let b = a + 1; b < n; b++) {
      const rb = ranked[b];
      const tau = ra.ties < tot && rb.ties < tot ? tauB(concordance(ra, rb, L, y, tree), tot, ra.ties, rb.ties) : 0;
      out[a * n + b] = tau;
      out[b * n + a] = tau;
    }
  }
  return out;
}

/** n_c − n_d of two ranked windows (Knight): y's ranks in x order, joint ties, inversions (n_d). */
function concordance(ra: Ranked, rb: Ranked, L: number, y: Int32Array, tree: Int32Array): number {
  const tot = (L * (L - 1)) / 2;
  // y in x order; within a run of equal x, ascending y (pairs tied in x are not discordant).
  const order = ra.order;
  const rank = rb.rank;
  for (let k = 0; k < L; k++) y[k] = rank[order[k]];
  let joint = 0;
  if (ra.hasTies) {
    let k = 0;
    while (k < L) {
      let e = k;
      const xr = ra.rank[order[k]];
      while (e + 1 < L && ra.rank[order[e + 1]] === xr) e++;
      if (e > k) {
        insertionSort(y, k, e + 1);
        if (rb.hasTies) joint += jointTies(y, k, e + 1);
      }
      k = e + 1;
    }
  }
  return tot - ra.ties - rb.ties + joint - 2 * inversions(y, tree, L);
}

/** scipy's expression and order of operations (variant 'b') on the exact counts, then its clip to [−1, 1]. */
function tauB(conMinusDis: number, tot: number, tiesX: number, tiesY: number): number {
  const tau = conMinusDis / Math.sqrt(tot - tiesX) / Math.sqrt(tot - tiesY);
  return Math.min(1, Math.max(-1, tau));
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

/**
 * Pairs k < l with y[k] > y[l] (strictly), y holding ranks 0 … L − 1: a Fenwick tree over the ranks
 * seen so far (`tree`, L + 1 slots) gives, for each k, how many earlier values are ≤ y[k]. Its
 * loops have no data-dependent branches, so it runs 2–2.5x faster than a merge sort here.
 */
function inversions(y: Int32Array, tree: Int32Array, L: number): number {
  tree.fill(0, 0, L + 1);
  let inv = 0;
  for (let k = 0; k < L; k++) {
    const v = y[k] + 1;
    let atMost = 0;
    for (let i = v; i > 0; i -= i & -i) atMost += tree[i];
    inv += k - atMost;
    for (let i = v; i <= L; i += i & -i) tree[i]++;
  }
  return inv;
}

/**
 * τ-b matrices of consecutive windows of the same series, for rolling requests: the exact counts
 * n_c − n_d (per pair) and x ties (per series) are kept between calls and moved bar by bar — the
 * leaving bar's pairs with the L − 1 bars both windows share are taken out, the entering bar's put
 * in: O(L) per pair and bar instead of O(L log L). The counts are the same integers kendallMatrix
 * computes, so every matrix equals kendallMatrix(series of `nodes`, start, length) bit for bit.
 * docs/engine.md § Kendall tau.
 */
export class SlidingKendall {
  /** Window start the counts are for, −1 = none yet. */
  private at = -1;
  /** Series whose counts are current (the last call's nodes). */
  private readonly tracked: Uint8Array;
  /** n_c − n_d of series i < j at N·i + j. */
  private readonly conc: Float64Array;
  /** Σ t(t − 1)/2 over groups of t equal values in the window. */
  private readonly ties: Float64Array;
  private readonly y: Int32Array;
  private readonly tree: Int32Array;
  /** How often each path ran (tests check that sliding happened). */
  slides = 0;
  fullPairs = 0;

  /**
   * `series` hold finite values wherever a window of a call reads them; `length` is the window
   * length L. Moves of more than `maxSlide` bars (default: while cheaper than recounting) or
   * backwards recount from scratch. `kernel`: "scalar" keeps the sliding dot products off the
   * WebAssembly kernel (the tests compare both; the counts are exact either way).
   */
  constructor(
    private readonly series: Float64Array[],
    private readonly length: number,
    private readonly maxSlide = Math.max(1, Math.floor(1.5 * Math.log2(Math.max(2, length)))),
    private readonly kernel: CorrelationKernel = "blas",
  ) {
    const N = series.length;
    this.tracked = new Uint8Array(N);
    this.conc = new Float64Array(N * N);
    this.ties = new Float64Array(N);
    this.y = new Int32Array(length);
    this.tree = new Int32Array(length + 1);
  }

  /** n×n row-major τ-b of the window start … start + L − 1 of the series `nodes` (distinct indices), diagonal 1. */
  matrixAt(start: number, nodes: readonly number[]): Float64Array {
    const { series, tracked, conc, ties } = this;
    const N = series.length;
    const L = this.length;
    const tot = (L * (L - 1)) / 2;
    const n = nodes.length;
    const step = start - this.at;
    if (this.at < 0 || step < 0 || step > this.maxSlide) tracked.fill(0);
    const kept = nodes.filter((i) => tracked[i] === 1);
    if (step > 0 && kept.length > 0) this.slide(kept, this.at, step);
    this.at = start;
    if (kept.length < n) {
      // Rows of the series not tracked yet, by Knight's count.
      const ranked = nodes.map((i) => rankSeries(series[i], start, L));
      for (let a = 0; a < n; a++) {
        ties[nodes[a]] = ranked[a].ties;
        for (let b = a + 1; b < n; b++) {
          const i = nodes[a];
          const j = nodes[b];
          if (tracked[i] === 1 && tracked[j] === 1) continue;
          const c = concordance(ranked[a], ranked[b], L, this.y, this.tree);
          conc[Math.min(i, j) * N + Math.max(i, j)] = c;
          this.fullPairs++;
        }
      }
    }
    tracked.fill(0);
    for (const i of nodes) tracked[i] = 1;
    const out = new Float64Array(n * n);
    for (let a = 0; a < n; a++) {
      out[a * n + a] = 1;
      const i = nodes[a];
      for (let b = a + 1; b < n; b++) {
        const j = nodes[b];
        const tau = ties[i] < tot && ties[j] < tot ? tauB(conc[Math.min(i, j) * N + Math.max(i, j)], tot, ties[i], ties[j]) : 0;
        out[a * n + b] = tau;
        out[b * n + a] = tau;
      }
    }
    return out;
  }

  /**
   * Moves the counts of the series `kept` from the window at `from` by `step` bars. For the window
   * [s, s + L) moving to [s + 1, s + L + 1), over the shared bars k = s + 1 … s + L − 1:
   * Δ(n_c − n_d) = Σ_k sgn(x_new − x_k)·sgn(y_new − y_k) − Σ_k sgn(x_k − x_s)·sgn(y_k − y_s),
   * Δties(x) = #{k: x_k = x_new} − #{k: x_k = x_s}. Each series' signs for all steps go into one
   * vector (entering signs, then leaving ones; v for one side of the product, w with the leaving
   * signs negated for the other), so a pair's change is one dot product of integers.
   */
  private slide(kept: number[], from: number, step: number): void {
    const { series, conc, ties } = this;
    const N = series.length;
    const L = this.length;
    const len = (L - 1) * step;
    const n = kept.length;
    // Entering signs, then leaving ones, k-major (the kernel's layout): the vectors of series a at
    // enter[k·n + a], leave[k·n + a].
    const enter = new Float64Array(n * len);
    const leave = new Float64Array(n * len);
    for (let a = 0; a < n; a++) {
      const x = series[kept[a]];
      let p = a;
      let dt = 0;
      for (let s = from; s < from + step; s++) {
        const xOut = x[s];
        const xIn = x[s + L];
        for (let k = s + 1; k < s + L; k++) {
          const xk = x[k];
          const g = (xIn > xk ? 1 : 0) - (xIn < xk ? 1 : 0);
          const h = (xk > xOut ? 1 : 0) - (xk < xOut ? 1 : 0);
          enter[p] = g;
          leave[p] = h;
          p += n;
          dt += (g === 0 ? 1 : 0) - (h === 0 ? 1 : 0);
        }
      }
      ties[kept[a]] += dt;
    }
    const simd = this.kernel !== "scalar";
    const dIn = gram(enter, n, len, simd);
    const dOut = gram(leave, n, len, simd);
    for (let a = 0; a < n; a++) {
      for (let b = a + 1; b < n; b++) {
        const i = kept[a];
        const j = kept[b];
        conc[Math.min(i, j) * N + Math.max(i, j)] += dIn[a * n + b] - dOut[a * n + b];
      }
    }
    this.slides += step;
  }
}

/**
 * Dot products of the n vectors held k-major in t (t[k·n + i], k < len) at D[i·n + j], i < j: the
 * WebAssembly kernel of correlationMatrix where it runs, else a loop. The values are small
 * integers, so every order of summation gives the same exact result.
 */
function gram(t: Float64Array, n: number, len: number, simd: boolean): Float64Array {
  const ws = simd && n >= 2 ? dotWorkspace(n, len) : null;
  if (ws) {
    ws.T.set(t);
    ws.dots();
    return ws.D.slice();
  }
  const d = new Float64Array(n * n);
  for (let k = 0; k < len; k++) {
    const row = k * n;
    for (let i = 0; i < n; i++) {
      const ti = t[row + i];
      if (ti === 0) continue;
      for (let j = i + 1; j < n; j++) d[i * n + j] += ti * t[row + j];
    }
  }
  return d;
}

/**
 * τ-b matrices (as kendallMatrix) of every series over the windows starts[q] … starts[q] + length − 1,
 * in order; consecutive starts a few bars apart slide instead of recounting (SlidingKendall).
 */
export function kendallRolling(series: Float64Array[], starts: readonly number[], length: number): Float64Array[] {
  const sliding = new SlidingKendall(series, length);
  const all = series.map((_, i) => i);
  return starts.map((s) => sliding.matrixAt(s, all));
}
