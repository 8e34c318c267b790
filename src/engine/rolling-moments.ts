/**
 * Sliding Pearson sums for rolling requests: moving the window by `step` bars costs O(n²·step)
 * instead of O(n²·lookback). Sums are of values shifted by a recent mean, so `ss − s²/L` does not
 * cancel catastrophically, and rebuilt from scratch periodically to bound drift (docs/engine.md).
 */
import { pearsonFromMoments } from "./correlation.ts";
import { dotWorkspace } from "./simd/dot-kernel.ts";
import { windowStart, type ReturnsPanel } from "./window.ts";

const REBASE_AFTER = 4;

/** Whether moving the window from as-of `from` (-1: none yet) to `t`, `slid` bars after the last full rebuild, rebuilds from scratch. */
function rebuildsAt(from: number, t: number, slid: number, L: number): boolean {
  const jump = t - from;
  return from < 0 || jump <= 0 || jump >= L || slid + jump > REBASE_AFTER * L;
}

/**
 * Index in `asofs` (the as-ofs SlidingMoments is moved to, in order) of the last one at which the
 * sums are rebuilt from scratch: the state after it depends on nothing before it.
 */
export function lastFullRebuild(asofs: readonly number[], lookback: number): number {
  let last = 0;
  let slid = 0;
  for (let k = 0; k < asofs.length; k++) {
    const from = k > 0 ? asofs[k - 1] : -1;
    if (rebuildsAt(from, asofs[k], slid, lookback)) {
      last = k;
      slid = 0;
    } else slid += asofs[k] - from;
  }
  return last;
}

export class SlidingMoments {
  private readonly N: number;
  private readonly L: number;
  private readonly shift: Float64Array;
  private readonly s: Float64Array;
  private readonly ss: Float64Array;
  /** Upper triangle (i < j) of an N×N matrix of cross sums. */
  private readonly sxy: Float64Array;
  private active: Uint8Array;
  private asof = -1;
  private slidSinceRebuild = 0;
  /** How often each path ran; tests use them to check that sliding really happened. */
  fullRebuilds = 0;
  rowRebuilds = 0;

  constructor(private readonly panel: ReturnsPanel) {
    this.N = panel.returns.length;
    this.L = panel.lookback;
    this.shift = new Float64Array(this.N);
    this.s = new Float64Array(this.N);
    this.ss = new Float64Array(this.N);
    this.sxy = new Float64Array(this.N * this.N);
    this.active = new Uint8Array(this.N);
  }

  /**
   * Moves the window to end at as-of `t` with `nodes` (ascending symbol indices, all with a
   * full window) as members, then returns their Pearson matrix (nodes.length², row-major).
   */
  correlationAt(t: number, nodes: number[]): Float64Array {
    this.moveTo(t, nodes);
    const n = nodes.length;
    const s = new Float64Array(n);
    const ss = new Float64Array(n);
    const sxy = new Float64Array(n * n);
    for (let a = 0; a < n; a++) {
      const i = nodes[a];
      s[a] = this.s[i];
      ss[a] = this.ss[i];
      const row = i * this.N;
      for (let b = a + 1; b < n; b++) sxy[a * n + b] = this.sxy[row + nodes[b]];
    }
    return pearsonFromMoments(this.L, s, ss, sxy, n);
  }

  /**
   * Moves the window to end at as-of `t` with `nodes` as members without building a matrix: a part
   * of a split rolling request replays the as-ofs before its own from the last full rebuild, so its
   * sums are bit for bit those of the unsplit run (lastFullRebuild).
   */
  moveTo(t: number, nodes: number[]): void {
    const jump = t - this.asof;
    const rebuild = rebuildsAt(this.asof, t, this.slidSinceRebuild, this.L);
    const next = new Uint8Array(this.N);
    for (const i of nodes) next[i] = 1;
    if (rebuild) {
      this.fullRebuilds++;
      this.slidSinceRebuild = 0;
      this.rebuildRows(t, nodes, []);
    } else {
      const kept = nodes.filter((i) => this.active[i] === 1);
      const fresh = nodes.filter((i) => this.active[i] === 0);
      this.slide(this.asof, t, kept);
      this.slidSinceRebuild += jump;
      this.rowRebuilds += fresh.length;
      this.rebuildRows(t, fresh, kept);
    }
    this.active = next;
    this.asof = t;
  }

  /** Adds the bars after `from` up to `to` and removes as many from the window's start. */
  private slide(from: number, to: number, kept: number[]): void {
    const { N, L, shift, s, ss, sxy } = this;
    const m = kept.length;
    const add = new Float64Array(m);
    const del = new Float64Array(m);
    const r = kept.map((i) => this.panel.returns[i]);
    const start = windowStart(this.panel, from);
    for (let d = 0; d < to - from; d++) {
      const kDel = start + d;
      const kAdd = kDel + L;
      for (let a = 0; a < m; a++) {
        const i = kept[a];
        const x = r[a][kAdd] - shift[i];
        const y = r[a][kDel] - shift[i];
        add[a] = x;
        del[a] = y;
        s[i] += x - y;
        ss[i] += x * x - y * y;
      }
      for (let a = 0; a < m; a++) {
        const row = kept[a] * N;
        const xa = add[a];
        const ya = del[a];
        for (let b = a + 1; b < m; b++) sxy[row + kept[b]] += xa * add[b] - ya * del[b];
      }
    }
  }

  /**
   * Recomputes from scratch the rows of `rows` (new shift = their window mean), against each
   * other and against `others`, whose sums are already current for the window ending at t.
   */
  private rebuildRows(t: number, rows: number[], others: number[]): void {
    const { N, L, shift, s, ss, sxy } = this;
    const m0 = windowStart(this.panel, t);
    for (const i of rows) {
      const x = this.panel.returns[i];
      let mean = 0;
      for (let k = m0; k < m0 + L; k++) mean += x[k];
      shift[i] = mean / L;
    }
    if (others.length === 0 && this.rebuildInKernel(m0, rows)) return;
    // Centred windows packed row after row, so the dot products below stream through memory.
    const all = [...rows, ...others];
    const packed = new Float64Array(all.length * L);
    all.forEach((i, a) => {
      const x = this.panel.returns[i];
      const c = shift[i];
      for (let k = 0; k < L; k++) packed[a * L + k] = x[m0 + k] - c;
    });
    for (let a = 0; a < rows.length; a++) {
      const i = rows[a];
      const oa = a * L;
      let sum = 0;
      let sq = 0;
      for (let k = 0; k < L; k++) {
        sum += packed[oa + k];
        sq += packed[oa + k] * packed[oa + k];
      }
      s[i] = sum;
      ss[i] = sq;
      for (let b = a + 1; b < all.length; b++) {
        const j = all[b];
        const ob = b * L;
        let dot = 0;
        for (let k = 0; k < L; k++) dot += packed[oa + k] * packed[ob + k];
        sxy[i < j ? i * N + j : j * N + i] = dot;
      }
    }
  }
  /**
   * A full rebuild's cross sums by the WebAssembly dot kernel (correlationMatrix's): each product
   * sums k in order, as the loop in rebuildRows does, so the sums are bit for bit the same, ~3x
   * sooner at 2,000 series of 252 returns (a split rolling request rebuilds once per part). False
   * where there is no kernel or the workspace would be too large.
   */
  private rebuildInKernel(m0: number, rows: number[]): boolean {
    const { N, L, shift, s, ss, sxy } = this;
    const m = rows.length;
    const ws = m >= 2 ? dotWorkspace(m, L) : null;
    if (ws === null) return false;
    const T = ws.T;
    for (let a = 0; a < m; a++) {
      const i = rows[a];
      const x = this.panel.returns[i];
      const c = shift[i];
      let sum = 0;
      let sq = 0;
      for (let k = 0; k < L; k++) {
        const v = x[m0 + k] - c;
        T[k * m + a] = v;
        sum += v;
        sq += v * v;
      }
      s[i] = sum;
      ss[i] = sq;
    }
    ws.dots();
    const D = ws.D;
    for (let a = 0; a < m; a++) {
      const i = rows[a];
      for (let b = a + 1; b < m; b++) {
        const j = rows[b];
        sxy[i < j ? i * N + j : j * N + i] = D[a * m + b];
      }
    }
    return true;
  }
}
