// Option presets shared by the scripts.

/** Trend statistics in the summary: p(99) is not in k6's default set. */
export const SUMMARY_TREND_STATS = ["avg", "min", "med", "max", "p(90)", "p(95)", "p(99)", "count"];

/**
 * k6 options with the shared defaults filled in; `options` wins on conflicts.
 * @template T
 * @param {T} options
 * @returns {T & { summaryTrendStats: string[], setupTimeout: string }}
 */
export function withDefaults(options) {
  return Object.assign({ summaryTrendStats: SUMMARY_TREND_STATS, setupTimeout: "60s" }, options);
}

/**
 * Latency thresholds in milliseconds.
 * @param {number} p95Ms
 * @param {number} p99Ms
 * @returns {string[]}
 */
export function latency(p95Ms, p99Ms) {
  return [`p(95)<${p95Ms}`, `p(99)<${p99Ms}`];
}

/** A counter that must never count anything. The scripts add 0 to it on every check so it always has samples. */
export const NEVER = ["count==0"];

/**
 * `NEVER` that also stops the run at once when crossed (k6 evaluates thresholds every few seconds): a
 * target that admits what it must refuse fails in seconds instead of running to the end.
 */
export const NEVER_ABORT = [{ threshold: "count==0", abortOnFail: true }];
