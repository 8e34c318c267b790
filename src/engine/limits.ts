/**
 * Limits the engine itself enforces, whatever the caller validated: request parsing
 * (src/http/params) shows them to callers with the same values.
 */

/** Largest number of as-ofs one request may compute. */
export const PERIODS = { min: 1, max: 250, default: 1 } as const;
/**
 * Cap on periods × symbols: one rolling response holds that many points (times the metrics),
 * so 500 symbols × 100 periods (about 5 MB of JSON) is the largest response we build.
 */
export const MAX_POINTS = 50_000;
