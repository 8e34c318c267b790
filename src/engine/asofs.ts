/**
 * Which calendar bars a request is computed at: `asof` and `periods` counted back by `step`, or
 * a date range `start`..`end` (issue 15). A range is always a rolling request, even of one date.
 */
import { MAX_POINTS, PERIODS } from "./limits.ts";
import { ChartError, type ChartParams, type SeriesInput } from "./types.ts";

/** Rolling payload (one entry per as-of) rather than a snapshot. */
export function isRolling(params: ChartParams): boolean {
  return params.periods > 1 || params.start !== null;
}

/** Calendar indices of the as-of bars, oldest first. */
export function resolveAsofs(input: SeriesInput, params: ChartParams): number[] {
  const asofs =
    params.start !== null && params.end !== null ? rangeAsofs(input, params, params.start, params.end) : countedAsofs(input, params);
  const points = asofs.length * input.symbols.length;
  if (params.start !== null && points > MAX_POINTS) {
    throw new ChartError(
      "too-large",
      `as-of dates x symbols must be at most ${MAX_POINTS}, got ${asofs.length} x ${input.symbols.length} = ${points} ` +
        `for start=${params.start}, end=${params.end}, step=${params.step}; raise step, narrow the range or request fewer symbols`,
    );
  }
  if (asofs[0] < params.lookback) throw tooFewBars(input, params, asofs);
  return asofs;
}

/** The first as-of lacks lookback bars before it: a 400 saying how many bars exist (docs/api.md § GET /v1/graph-stats/chart). */
function tooFewBars(input: SeriesInput, params: ChartParams, asofs: number[]): ChartError {
  const { labels } = input;
  const last = asofs[asofs.length - 1];
  if (params.start === null) {
    return new ChartError(
      "insufficient-history",
      `lookback=${params.lookback}, periods=${params.periods}, step=${params.step} needs ` +
        `${params.lookback + (params.periods - 1) * params.step + 1} bars up to ${labels[last].slice(0, 10)} ` +
        `but only ${last + 1} exist at interval ${params.interval}`,
    );
  }
  const hint =
    labels.length > params.lookback
      ? `start on or after ${labels[params.lookback].slice(0, 10)}`
      : `only ${labels.length} bars exist at interval ${params.interval}`;
  return new ChartError(
    "insufficient-history",
    `the first as-of of start=${params.start} (${labels[asofs[0]].slice(0, 10)}) has ${asofs[0]} bars before it, ` +
      `but lookback=${params.lookback} needs ${params.lookback}; ${hint}`,
  );
}

/** asof (or the latest bar) and periods − 1 more, step bars apart; may start before bar 0 (resolveAsofs reports it). */
function countedAsofs(input: SeriesInput, params: ChartParams): number[] {
  const { labels } = input;
  const points = params.periods * input.symbols.length;
  if (points > MAX_POINTS) {
    throw new ChartError(
      "too-large",
      `periods x symbols must be at most ${MAX_POINTS}, got ${params.periods} x ${input.symbols.length} = ${points}; request fewer periods or symbols`,
    );
  }
  let t = labels.length - 1;
  if (params.asof !== null) {
    t = lastBarOnOrBefore(labels, params.asof);
    if (t < 0) {
      throw new ChartError(
        "out-of-range",
        `asof ${params.asof} is before the first bar (${labels[0].slice(0, 10)}) at interval ${params.interval}`,
      );
    }
  }
  return Array.from({ length: params.periods }, (_, p) => t - (params.periods - 1 - p) * params.step);
}

/** end's bar, then every step-th bar before it down to the first bar on or after start. */
function rangeAsofs(input: SeriesInput, params: ChartParams, start: string, end: string): number[] {
  const { labels } = input;
  const last = lastBarOnOrBefore(labels, end);
  const first = lastBarOnOrBefore(labels, start, true) + 1;
  if (last < first) {
    const span = `${labels[0].slice(0, 10)} to ${labels[labels.length - 1].slice(0, 10)}`;
    throw new ChartError(
      "out-of-range",
      `no bar between start=${start} and end=${end} at interval ${params.interval}; the bars run from ${span}`,
    );
  }
  const count = Math.floor((last - first) / params.step) + 1;
  if (count > PERIODS.max) {
    throw new ChartError(
      "invalid-parameter",
      `start=${start}, end=${end} with step=${params.step} gives ${count} as-of dates at interval ${params.interval}, ` +
        `at most ${PERIODS.max} are allowed; use step=${Math.ceil((last - first + 1) / PERIODS.max)} or more, or a shorter range`,
    );
  }
  return Array.from({ length: count }, (_, p) => last - (count - 1 - p) * params.step);
}

/**
 * The last k with local date labels[k][0..10) <= date (< date when `strict`), or -1. Binary
 * search over the calendar (chronological, so its dates never decrease): walking back from the
 * end sliced a few hundred labels per snapshot request in bench/engine.bench.ts.
 */
function lastBarOnOrBefore(labels: string[], date: string, strict = false): number {
  let lo = 0;
  let hi = labels.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const d = labels[mid].slice(0, 10);
    if (strict ? d < date : d <= date) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
