// live.js's arithmetic as pure functions: which user an iteration uses, how many VUs a rate needs, when an
// iteration was due, and the server limits a run needs so that no request is ever refused (429).
import { checkEnvelope, parseBody } from "./envelope.js";
import { checkCommonHeaders, checkRateLimitHeaders } from "./headers.js";

/** The fixed small question live.js asks: daily bars, the default universe, cached after the first answer. */
export const DEFAULT_LIVE_QUERY = "lookback=60";

/**
 * The user (0-based index into the token list) of the scenario's iteration `n`: round-robin over `users`.
 * @param {number} n
 * @param {number} users
 * @returns {number}
 */
export function userIndex(n, users) {
  return n % users;
}

/**
 * Pre-allocated and maximum VUs for an open loop at `rate` per second: enough for 100 ms of answers in
 * flight without starting a VU mid-run, and up to one second's worth before iterations are dropped.
 * @param {number} rate
 * @returns {{ preAllocated: number, max: number }}
 */
export function vusForRate(rate) {
  const preAllocated = Math.max(10, Math.ceil(rate / 10));
  return { preAllocated, max: Math.max(preAllocated, 100, rate) };
}

/**
 * The most requests one user sends in any sliding minute, and in the whole run, when iterations at
 * `rate` per second take the users in turn.
 * @param {{ rate: number, users: number, seconds: number }} p
 * @returns {{ perMinute: number, perRun: number }}
 */
export function requestsPerUser(p) {
  return {
    perMinute: Math.floor((60 * p.rate) / p.users) + 1,
    perRun: Math.ceil((p.rate * p.seconds) / p.users),
  };
}

/**
 * Server limits under which such a run is never refused: twice the most a user sends in a minute
 * (answers, not sends, are what the server counts, and they jitter) and twice a run's worth a day (at
 * least 1000, the runner's usual figure), plus the one warm-up request of `setup()`.
 * @param {{ rate: number, users: number, seconds: number }} p
 * @returns {{ ratePerMinute: number, ratePerDay: number }}
 */
export function limitsForRun(p) {
  const need = requestsPerUser(p);
  return { ratePerMinute: 2 * need.perMinute + 1, ratePerDay: Math.max(1000, 2 * need.perRun + 1) };
}

/**
 * The Unix ms at which the scenario's iteration `n` was due: the scenario's start plus n arrivals.
 * @param {number} startMs
 * @param {number} n
 * @param {number} rate per second
 * @returns {number}
 */
export function dueMs(startMs, n, rate) {
  return startMs + (n * 1000) / rate;
}

/**
 * Problems with one answer of the cached live endpoint: a 200 in the envelope with `data.stocks`, the
 * common headers and every rate-limit header. `cached` is `meta.diagnostics.cached`. A null body (k6's
 * `responseType: "none"`) is judged on its headers only, and `cached` is then null. In `core` only the
 * interface's envelope and five rate-limit headers; `meta.diagnostics.cached` is graph-stats' own.
 * @param {{ status: number, headers: import('./headers.js').HeaderMap, body: unknown }} res
 * @param {number | null} nowSec client clock for the X-RateLimit-Reset bound, or null to skip it
 * @param {import('./profile.js').Profile} [profile] `full` unless `core` is given
 * @returns {{ problems: string[], cached: boolean | null }}
 */
export function liveAnswer(res, nowSec, profile) {
  const full = profile !== "core";
  const problems = checkCommonHeaders(res.headers, profile).concat(
    checkRateLimitHeaders(res.headers, res.status, null, nowSec, { profile }),
  );
  if (res.body === null || res.body === undefined) return { problems, cached: null };
  const parsed = parseBody(res.body);
  if ("problem" in parsed) return { problems: problems.concat(parsed.problem), cached: null };
  const value = parsed.value;
  const diagnostics = value && value.meta && value.meta.diagnostics;
  const cached = diagnostics && typeof diagnostics.cached === "boolean" ? diagnostics.cached : null;
  problems.push(...checkEnvelope(value, { success: true, stocks: true }, profile));
  if (full && cached === null) problems.push("bad-envelope: meta.diagnostics.cached is not a boolean");
  return { problems, cached };
}
