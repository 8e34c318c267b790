/**
 * Does the spacing of a symbol's bars agree with the interval they are imported as? 1-minute
 * bars imported without `--interval 1m` used to be stored as daily bars, silently (issue #12).
 * Gaps are measured in exchange-local time, so daylight-saving changes do not count.
 */
import { INTERVALS, type Interval } from "../engine/types.ts";
import { INTERVAL_MS } from "./intervals.ts";

/** How often one gap (ms between consecutive bars) occurs, and the first line that ends such a gap. */
export interface GapCount {
  gapMs: number;
  count: number;
  line: number;
}

/** The interval whose length is exactly `ms`, if any. */
const intervalOf = (ms: number) => INTERVALS.find((i) => INTERVAL_MS[i] === ms);

/** `1m`, `90m`, `2d`, `45s`: the largest unit that divides the gap. */
export function formatGap(ms: number): string {
  const named = intervalOf(ms);
  if (named) return named;
  for (const [unit, size] of [
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["m", 60_000],
    ["s", 1000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/**
 * The line and reason when the gaps contradict `interval`, else null. Two rules: no two bars may
 * be closer than the interval, and the most common gap (seen at least twice) must be the interval
 * itself, except that daily bars may skip days (weekends, holidays) as long as one day is the
 * most common gap. Duplicates (gap 0) are reported elsewhere and ignored here.
 */
export function spacingProblem(gaps: readonly GapCount[], interval: Interval, symbol?: string): { line: number; reason: string } | null {
  const positive = gaps.filter((g) => g.gapMs > 0);
  if (positive.length === 0) return null;
  const size = INTERVAL_MS[interval];
  const smallest = positive.reduce((a, b) => (b.gapMs < a.gapMs ? b : a));
  const common = positive.reduce((a, b) => (b.count > a.count || (b.count === a.count && b.gapMs < a.gapMs) ? b : a));
  const whose = symbol ? ` for ${symbol}` : "";
  const advice = (g: GapCount) => {
    const fits = intervalOf(g.gapMs);
    return fits
      ? `import ${fits} bars with --interval ${fits}`
      : `the intervals are ${INTERVALS.join(" ")}: resample the file to one of them, or import it with the --interval its bars have`;
  };
  if (smallest.gapMs < size) {
    return {
      line: smallest.line,
      reason: `bar spacing contradicts --interval ${interval}: bars${whose} only ${formatGap(smallest.gapMs)} apart (this row and the one before); ${advice(common.gapMs < size ? common : smallest)}`,
    };
  }
  if (common.count >= 2 && common.gapMs !== size) {
    return {
      line: common.line,
      reason: `bar spacing contradicts --interval ${interval}: bars${whose} are mostly ${formatGap(common.gapMs)} apart (${common.count} times, first ending at this row); ${advice(common)}`,
    };
  }
  return null;
}
