// Header checks as pure functions. k6 canonicalises header names (`X-Ratelimit-Limit`), Bun keeps
// them lower-case, so every lookup here is case-insensitive.

/** The five classic rate-limit headers every live response carries once the user is known. */
export const RATE_LIMIT_HEADERS = [
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Daily-Limit",
  "X-RateLimit-Daily-Remaining",
  "X-RateLimit-Reset",
];

/**
 * @typedef {Record<string, string | string[] | undefined>} HeaderMap
 * @typedef {{ limit: number | null, remaining: number | null, dailyLimit: number | null,
 *   dailyRemaining: number | null, reset: number | null, retryAfter: number | null }} RateLimits
 */

/**
 * A header's value regardless of the case of its name; repeated headers are joined with ", ".
 * @param {HeaderMap} headers
 * @param {string} name
 * @returns {string | null}
 */
export function headerValue(headers, name) {
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    const value = headers[key];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(", ") : value;
  }
  return null;
}

/**
 * @param {string | null} raw
 * @returns {number | null} the value when it is a non-negative decimal integer, else null
 */
function nonNegativeInt(raw) {
  if (raw === null || !/^\d+$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

/**
 * Reads the rate-limit headers; a missing or non-integer header is null. Scripts use this to learn
 * the deployment's limits instead of hard-coding 1/minute and 30/day.
 * @param {HeaderMap} headers
 * @returns {RateLimits}
 */
export function parseRateLimits(headers) {
  return {
    limit: nonNegativeInt(headerValue(headers, "X-RateLimit-Limit")),
    remaining: nonNegativeInt(headerValue(headers, "X-RateLimit-Remaining")),
    dailyLimit: nonNegativeInt(headerValue(headers, "X-RateLimit-Daily-Limit")),
    dailyRemaining: nonNegativeInt(headerValue(headers, "X-RateLimit-Daily-Remaining")),
    reset: nonNegativeInt(headerValue(headers, "X-RateLimit-Reset")),
    retryAfter: nonNegativeInt(headerValue(headers, "Retry-After")),
  };
}

/**
 * Parses an IETF `RateLimit-Policy` list, e.g. `"minute";q=1;w=60, "day";q=30;w=86400`.
 * @param {string} raw
 * @returns {Record<string, { q: number, w: number }> | null} policies by name, or null when malformed
 */
export function parsePolicy(raw) {
  /** @type {Record<string, { q: number, w: number }>} */
  const out = {};
  for (const item of raw.split(",")) {
    const m = /^\s*"([^"]+)"\s*((?:;\s*[a-z]+=\d+\s*)+)$/.exec(item);
    if (!m) return null;
    /** @type {Record<string, number>} */
    const params = {};
    const re = /;\s*([a-z]+)=(\d+)/g;
    let p;
    while ((p = re.exec(m[2])) !== null) params[p[1]] = Number(p[2]);
    if (params.q === undefined || params.w === undefined) return null;
    out[m[1]] = { q: params.q, w: params.w };
  }
  return out;
}

/**
 * Headers every response of every route carries (docs/api.md § Headers): graph-stats' own, so only in
 * the `full` profile; the interface names neither.
 * @param {HeaderMap} headers
 * @param {import('./profile.js').Profile} [profile] `full` unless `core` is given
 * @returns {string[]} problems, empty when all is well
 */
export function checkCommonHeaders(headers, profile) {
  if (profile === "core") return [];
  const problems = [];
  const type = headerValue(headers, "Content-Type");
  if (type === null || !/^application\/json;\s*charset=utf-8$/i.test(type)) {
    problems.push(`content-type: expected 'application/json; charset=utf-8', got '${type}'`);
  }
  if (!headerValue(headers, "X-Request-Id")) problems.push("missing-header: X-Request-Id");
  return problems;
}

/**
 * The public endpoints are unmetered (docs/api.md § GET /health, § GET /v1/demo/chart): no rate-limit
 * header at all, in every profile.
 * @param {HeaderMap} headers
 * @param {string} what the endpoint, for the message
 * @returns {string[]}
 */
export function checkUnmetered(headers, what) {
  return RATE_LIMIT_HEADERS.concat(["Retry-After"])
    .filter((name) => headerValue(headers, name) !== null)
    .map((name) => `bad-header: ${name} on ${what}, which is unmetered`);
}

/**
 * @typedef {{ profile?: import('./profile.js').Profile, skewSec?: number,
 *   given?: { perMinute: number | null, perDay: number | null } }} RateLimitCheckOptions
 *   `profile`: `full` (the default) adds the IETF `RateLimit`/`RateLimit-Policy` headers; `skewSec` (5) bounds
 *   `X-RateLimit-Reset` around the client clock; `given`: limits the caller was told (`LIMIT_PER_MINUTE`,
 *   `LIMIT_PER_DAY`), which the headers must then announce.
 */

/**
 * Checks the rate-limit headers of a live-endpoint response to an authenticated user (docs/api.md
 * § Headers, § Metering, § Errors): the five `X-RateLimit-*` headers on every 200 and 429, `Retry-After`
 * on every 429, and a 429's code agreeing with the window it names.
 * `nowSec` (client clock) bounds `X-RateLimit-Reset`; pass null to skip that check.
 * @param {HeaderMap} headers
 * @param {number} status
 * @param {string | null} code `errors[0].code` of the body, or null on success
 * @param {number | null} nowSec
 * @param {RateLimitCheckOptions} [opts]
 * @returns {string[]} problems, empty when all is well
 */
export function checkRateLimitHeaders(headers, status, code, nowSec, opts) {
  const o = opts || {};
  const skew = o.skewSec === undefined ? 5 : o.skewSec;
  const problems = [];
  const lim = parseRateLimits(headers);
  for (const name of RATE_LIMIT_HEADERS) {
    const raw = headerValue(headers, name);
    if (raw === null) problems.push(`missing-header: ${name}`);
    else if (nonNegativeInt(raw) === null) problems.push(`bad-header: ${name} is not a non-negative integer: '${raw}'`);
  }
  if (o.given && o.given.perMinute !== null && lim.limit !== null && lim.limit !== o.given.perMinute) {
    problems.push(`bad-header: X-RateLimit-Limit ${lim.limit}, but the limit given (LIMIT_PER_MINUTE) is ${o.given.perMinute}`);
  }
  if (o.given && o.given.perDay !== null && lim.dailyLimit !== null && lim.dailyLimit !== o.given.perDay) {
    problems.push(`bad-header: X-RateLimit-Daily-Limit ${lim.dailyLimit}, but the limit given (LIMIT_PER_DAY) is ${o.given.perDay}`);
  }
  if (lim.limit !== null && lim.remaining !== null && lim.remaining > lim.limit) {
    problems.push(`bad-header: X-RateLimit-Remaining ${lim.remaining} exceeds X-RateLimit-Limit ${lim.limit}`);
  }
  if (lim.dailyLimit !== null && lim.dailyRemaining !== null && lim.dailyRemaining > lim.dailyLimit) {
    problems.push(`bad-header: X-RateLimit-Daily-Remaining ${lim.dailyRemaining} exceeds the daily limit ${lim.dailyLimit}`);
  }
  if (status === 200) {
    if (lim.limit !== null && lim.remaining !== null && lim.remaining > lim.limit - 1) {
      problems.push(`bad-header: admitted request left X-RateLimit-Remaining at ${lim.remaining} of ${lim.limit}`);
    }
    if (lim.dailyLimit !== null && lim.dailyRemaining !== null && lim.dailyRemaining > lim.dailyLimit - 1) {
      problems.push(`bad-header: admitted request left X-RateLimit-Daily-Remaining at ${lim.dailyRemaining} of ${lim.dailyLimit}`);
    }
  }
  if (lim.reset !== null && nowSec !== null && (lim.reset < nowSec - skew || lim.reset > nowSec + 60 + skew)) {
    problems.push(`bad-header: X-RateLimit-Reset ${lim.reset} is not within the next minute of ${Math.floor(nowSec)}`);
  }
  if (o.profile !== "core") problems.push(...checkIetfHeaders(headers, lim));
  if (status === 429) problems.push(...checkRetryAfter(headers, lim, code));
  return problems;
}

/**
 * @param {HeaderMap} headers
 * @param {RateLimits} lim
 * @returns {string[]}
 */
function checkIetfHeaders(headers, lim) {
  const problems = [];
  const policyRaw = headerValue(headers, "RateLimit-Policy");
  if (policyRaw === null) {
    problems.push("missing-header: RateLimit-Policy");
  } else {
    const policy = parsePolicy(policyRaw);
    if (policy === null || !policy.minute || !policy.day) {
      problems.push(`bad-header: RateLimit-Policy is not '"minute";q=N;w=60, "day";q=N;w=86400': '${policyRaw}'`);
    } else if (
      lim.limit !== null &&
      lim.dailyLimit !== null &&
      (policy.minute.q !== lim.limit || policy.minute.w !== 60 || policy.day.q !== lim.dailyLimit || policy.day.w !== 86400)
    ) {
      problems.push(
        `bad-header: RateLimit-Policy '${policyRaw}' disagrees with X-RateLimit-Limit ${lim.limit} / X-RateLimit-Daily-Limit ${lim.dailyLimit}`,
      );
    }
  }
  const current = headerValue(headers, "RateLimit");
  if (current === null) problems.push("missing-header: RateLimit");
  else if (!/^\s*"(minute|day)"\s*;\s*r=\d+\s*;\s*t=\d+\s*$/.test(current)) {
    problems.push(`bad-header: RateLimit is not '"minute";r=N;t=N' or '"day";r=N;t=N': '${current}'`);
  }
  return problems;
}

/**
 * @param {HeaderMap} headers
 * @param {RateLimits} lim
 * @param {string | null} code
 * @returns {string[]}
 */
function checkRetryAfter(headers, lim, code) {
  const problems = [];
  const raw = headerValue(headers, "Retry-After");
  if (raw === null) return ["missing-header: Retry-After on 429"];
  if (lim.retryAfter === null || lim.retryAfter < 1) {
    return [`bad-header: Retry-After must be an integer >= 1 second, got '${raw}'`];
  }
  if (code === "RATE_LIMITED") {
    if (lim.retryAfter > 60) problems.push(`bad-header: Retry-After ${lim.retryAfter}s on RATE_LIMITED exceeds the 60 s window`);
    if (lim.remaining !== null && lim.remaining !== 0)
      problems.push(`bad-header: RATE_LIMITED with X-RateLimit-Remaining ${lim.remaining}`);
  } else if (code === "DAILY_QUOTA_EXCEEDED") {
    if (lim.retryAfter > 86400) problems.push(`bad-header: Retry-After ${lim.retryAfter}s on DAILY_QUOTA_EXCEEDED exceeds a day`);
    if (lim.dailyRemaining !== null && lim.dailyRemaining !== 0)
      problems.push(`bad-header: DAILY_QUOTA_EXCEEDED with X-RateLimit-Daily-Remaining ${lim.dailyRemaining}`);
  } else {
    problems.push(`wrong-code: 429 must carry RATE_LIMITED or DAILY_QUOTA_EXCEEDED, got '${code}'`);
  }
  return problems;
}

/**
 * The short kind of a problem string (`missing-header`, `bad-header`, ...), used as a metric tag so
 * tag cardinality stays small.
 * @param {string} problem
 * @returns {string}
 */
export function problemKind(problem) {
  const i = problem.indexOf(":");
  return i > 0 ? problem.slice(0, i) : "other";
}
