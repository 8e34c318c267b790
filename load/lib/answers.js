// What a live-endpoint answer must be, by profile: the bodies of a 200 and a 429, and a refused
// credential. Pure, so `bun test` checks them on real answers of both implementations.
import { checkChallenge } from "./challenge.js";
import { checkEnvelope, errorCode, parseBody } from "./envelope.js";
import { checkCommonHeaders, headerValue, parseRateLimits } from "./headers.js";

/**
 * @typedef {{ status: number, headers: import('./headers.js').HeaderMap, body: unknown }} Answer
 */

/**
 * The `RATE_LIMITED` message docs/api.md § Errors gives, for the limit and `Retry-After` of the answer.
 * @param {number | null} limit
 * @param {string | null} retryAfter
 * @returns {string}
 */
export function rateLimitedMessage(limit, retryAfter) {
  return `rate limit exceeded: ${limit} ${limit === 1 ? "request" : "requests"}/minute. Retry in ${retryAfter}s.`;
}

/**
 * The envelope of a live 200 (`data.stocks` an array) or 429 (`RATE_LIMITED` with its message, or
 * `DAILY_QUOTA_EXCEEDED`), docs/api.md § The envelope, § Errors. The same in both profiles: the interface
 * fixes all of it. Other statuses are judged elsewhere (none here).
 * @param {Answer} res
 * @param {import('./profile.js').Profile} profile
 * @returns {string[]}
 */
export function liveEnvelopeProblems(res, profile) {
  if (res.status === 200) return checkEnvelope(res.body, { success: true, stocks: true }, profile);
  if (res.status !== 429) return [];
  const code = errorCode(res.body);
  if (code !== "RATE_LIMITED") return checkEnvelope(res.body, { success: false, code: "DAILY_QUOTA_EXCEEDED" }, profile);
  const message = rateLimitedMessage(parseRateLimits(res.headers).limit, headerValue(res.headers, "Retry-After"));
  return checkEnvelope(res.body, { success: false, code: "RATE_LIMITED", message }, profile);
}

/**
 * Which 429 a user gets once it has sent `remaining` more requests than its last 200 left, told by
 * `errors[0].code` (docs/api.md § Errors): `RATE_LIMITED` when the minute runs out first,
 * `DAILY_QUOTA_EXCEEDED` when the day does, either when both run out together (the interface leaves it open).
 * @param {number} remaining `X-RateLimit-Remaining` of the last 200
 * @param {number | null} dailyRemaining its `X-RateLimit-Daily-Remaining`
 * @returns {"RATE_LIMITED" | "DAILY_QUOTA_EXCEEDED" | null} null: either
 */
export function expectedRefusal(remaining, dailyRemaining) {
  if (dailyRemaining === null || dailyRemaining > remaining) return "RATE_LIMITED";
  return dailyRemaining < remaining ? "DAILY_QUOTA_EXCEEDED" : null;
}

/**
 * A plain live request (one the script expects to be metered) answered with a refusal the script did not
 * ask for: a 4xx other than 401 and 429 means the target wants parameters the interface does not name.
 * @param {Answer} res
 * @param {string} query what was sent
 * @returns {string | null} what to do about it, or null
 */
export function queryHint(res, query) {
  if (res.status < 400 || res.status >= 500 || res.status === 401 || res.status === 429) return null;
  const code = errorCode(res.body);
  return `the live endpoint answered ${res.status} ${code || ""} to '?${query}': pass -e QUERY=... with the parameters it requires`;
}

/**
 * Problems with the answer to a bad credential (lib/jwt.js `badTokenCases`). Core: refused with a 4xx
 * in the error envelope, and an expired token 401 `UNAUTHORIZED` saying so (docs/api.md § Tokens,
 * § Errors). Full: 401 `UNAUTHORIZED` with the exact message, graph-stats' headers and the challenge.
 * @param {Answer} res
 * @param {import('./jwt.js').BadTokenCase} c
 * @param {import('./profile.js').Profile} profile
 * @returns {string[]}
 */
export function refusalProblems(res, c, profile) {
  if (profile === "full") {
    if (res.status !== 401) return [`wrong-status: ${res.status}, expected 401`];
    return checkEnvelope(res.body, { success: false, code: "UNAUTHORIZED", message: c.message }).concat(
      checkCommonHeaders(res.headers),
      checkChallenge(headerValue(res.headers, "WWW-Authenticate"), c),
    );
  }
  if (res.status < 400 || res.status >= 500) return [`wrong-status: ${res.status}, expected a 4xx refusal`];
  if (c.name !== "expired") return checkEnvelope(res.body, { success: false }, "core");
  const problems = checkEnvelope(res.body, { success: false, code: "UNAUTHORIZED", message: /expired/i }, "core");
  return res.status === 401 ? problems : [`wrong-status: ${res.status} to an expired token, expected 401`].concat(problems);
}

/**
 * `data` of an envelope, or null.
 * @param {unknown} body
 * @returns {any}
 */
export function dataOf(body) {
  const p = parseBody(body);
  return "value" in p && p.value && typeof p.value === "object" ? p.value.data : null;
}
