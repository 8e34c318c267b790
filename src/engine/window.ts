/**
 * Per-window participation and returns (README.md § How the numbers are computed, steps 1–2).
 * Returns are computed once for the span all requested windows cover; a window is then a slice of
 * them.
 */

/** Log returns of every symbol over calendar bars `base+1 … end`, plus what a window needs to know. */
export interface ReturnsPanel {
  /** Calendar index of returns[i][0] is base + 1 (return k uses closes k-1 and k). */
  base: number;
  lookback: number;
  /** returns[i][k - base - 1] = ln(close_k / close_{k-1}), NaN when either close is missing or <= 0. */
  returns: Float64Array[];
  /** valid[i][m] = number of defined returns among the first m of returns[i] (prefix counts). */
  valid: Int32Array[];
}

/** Builds the panel for as-of bars from `firstAsof` to `lastAsof` (calendar indices). */
export function buildReturnsPanel(closes: Float64Array[], firstAsof: number, lastAsof: number, lookback: number): ReturnsPanel {
  const base = firstAsof - lookback;
  const len = lastAsof - base;
  const returns: Float64Array[] = [];
  const valid: Int32Array[] = [];
  for (const c of closes) {
    const r = new Float64Array(len);
    const pre = new Int32Array(len + 1);
    for (let m = 0; m < len; m++) {
      const a = c[base + m];
      const b = c[base + m + 1];
      const ok = a > 0 && b > 0 && Number.isFinite(a) && Number.isFinite(b);
      r[m] = ok ? Math.log(b / a) : NaN;
      pre[m + 1] = pre[m] + (ok ? 1 : 0);
    }
    returns.push(r);
    valid.push(pre);
  }
  return { base, lookback, returns, valid };
}

/** Offset in the panel's arrays of the first return of the window ending at as-of `t`. */
export function windowStart(p: ReturnsPanel, t: number): number {
  return t - p.lookback - p.base;
}

/** True iff symbol i has a close > 0 at every bar t-lookback … t. */
export function participates(p: ReturnsPanel, i: number, t: number): boolean {
  const m0 = windowStart(p, t);
  return p.valid[i][m0 + p.lookback] - p.valid[i][m0] === p.lookback;
}

/** True iff the window's returns of symbol i are all exactly equal (zero variance). */
export function zeroVariance(p: ReturnsPanel, i: number, t: number): boolean {
  const r = p.returns[i];
  const m0 = windowStart(p, t);
  const first = r[m0];
  for (let m = m0 + 1; m < m0 + p.lookback; m++) if (r[m] !== first) return false;
  return true;
}

/** Who takes part at as-of t, and who was dropped and why (indices in input order). */
export interface WindowMembers {
  nodes: number[];
  droppedBars: number[];
  droppedZeroVar: number[];
}

export function windowMembers(p: ReturnsPanel, t: number): WindowMembers {
  const out: WindowMembers = { nodes: [], droppedBars: [], droppedZeroVar: [] };
  for (let i = 0; i < p.returns.length; i++) {
    if (!participates(p, i, t)) out.droppedBars.push(i);
    else if (zeroVariance(p, i, t)) out.droppedZeroVar.push(i);
    else out.nodes.push(i);
  }
  return out;
}

/** The window's returns of the given symbols (views, no copy). */
export function windowSeries(p: ReturnsPanel, nodes: number[], t: number): Float64Array[] {
  const m0 = windowStart(p, t);
  return nodes.map((i) => p.returns[i].subarray(m0, m0 + p.lookback));
}
