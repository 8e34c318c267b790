// Reading k6 `__ENV` values. Pure: the caller passes the env object, so `bun test` can exercise it.

/** Default target: the local server started by `npm run load` or `graph-stats serve`. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";

/**
 * The target's base URL from `BASE_URL`, without a trailing slash.
 * @param {Record<string, string | undefined>} env
 * @returns {string}
 */
export function baseUrlFrom(env) {
  const raw = (env.BASE_URL || DEFAULT_BASE_URL).trim();
  if (!/^https?:\/\/[^/\s]+/.test(raw)) {
    throw new Error(`BASE_URL must start with http:// or https:// and name a host, got '${raw}'`);
  }
  return raw.replace(/\/+$/, "");
}

/**
 * An integer option, e.g. `-e VUS=20`.
 * @param {Record<string, string | undefined>} env
 * @param {string} name
 * @param {number} fallback
 * @param {number} [min]
 * @returns {number}
 */
export function intFrom(env, name, fallback, min) {
  const lower = min === undefined ? 1 : min;
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^-?\d+$/.test(raw.trim()) || Number(raw) < lower) {
    throw new Error(`${name} must be an integer >= ${lower}, got '${raw}'`);
  }
  return Number(raw);
}

/**
 * A number option (may be fractional), e.g. `-e P95_MS=250`.
 * @param {Record<string, string | undefined>} env
 * @param {string} name
 * @param {number} fallback
 * @returns {number}
 */
export function numberFrom(env, name, fallback) {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    throw new Error(`${name} must be a non-negative number, got '${raw}'`);
  }
  return value;
}

/**
 * A k6 duration option such as `30s`, `5m` or `1h30m`.
 * @param {Record<string, string | undefined>} env
 * @param {string} name
 * @param {string} fallback
 * @returns {string}
 */
export function durationFrom(env, name, fallback) {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^(\d+(ms|s|m|h))+$/.test(raw.trim())) {
    throw new Error(`${name} must be a k6 duration such as 30s, 5m or 1h30m, got '${raw}'`);
  }
  return raw.trim();
}

/**
 * Seconds in a k6 duration string (`1h30m` -> 5400).
 * @param {string} duration
 * @returns {number}
 */
export function durationSeconds(duration) {
  const units = /** @type {Record<string, number>} */ ({ ms: 0.001, s: 1, m: 60, h: 3600 });
  const parts = duration.match(/\d+(ms|s|m|h)/g);
  if (!parts || parts.join("") !== duration) throw new Error(`not a k6 duration: '${duration}'`);
  let total = 0;
  for (const part of parts) {
    const m = /^(\d+)(ms|s|m|h)$/.exec(part);
    if (m) total += Number(m[1]) * units[m[2]];
  }
  return total;
}

/**
 * A boolean option: `1 true yes` are true, `0 false no` and unset are false.
 * @param {Record<string, string | undefined>} env
 * @param {string} name
 * @returns {boolean}
 */
export function flagFrom(env, name) {
  const raw = (env[name] || "").trim().toLowerCase();
  if (raw === "" || raw === "0" || raw === "false" || raw === "no") return false;
  if (raw === "1" || raw === "true" || raw === "yes") return true;
  throw new Error(`${name} must be one of 1, 0, true, false, yes, no; got '${env[name]}'`);
}

/**
 * The limits a run was told (`LIMIT_PER_MINUTE`, `LIMIT_PER_DAY`); null where not given, and the scripts
 * then take them from `X-RateLimit-Limit` and `X-RateLimit-Daily-Limit`.
 * @param {Record<string, string | undefined>} env
 * @returns {{ perMinute: number | null, perDay: number | null }}
 */
export function givenLimits(env) {
  const given = (/** @type {string} */ name) => (env[name] === undefined || env[name] === "" ? null : intFrom(env, name, 1));
  return { perMinute: given("LIMIT_PER_MINUTE"), perDay: given("LIMIT_PER_DAY") };
}
