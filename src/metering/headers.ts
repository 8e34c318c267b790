/** Rate-limit headers and 429 messages, pure (docs/api.md § Headers, § Metering). */
import { MINUTE_MS, type DenialCode, type MeterState } from "./windows.ts";

/** The names of the headers rateLimitHeaders() sets: CORS exposes them, the OpenAPI document lists them. */
export const RATE_LIMIT_HEADER_NAMES = [
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Daily-Limit",
  "X-RateLimit-Daily-Remaining",
  "X-RateLimit-Reset",
  "RateLimit",
  "RateLimit-Policy",
] as const;

/**
 * The headers for a live response once the user is known: the X-RateLimit-* set, the IETF draft
 * `RateLimit-Policy` / `RateLimit` pair, and `Retry-After` when the state is a denial.
 */
export function rateLimitHeaders(state: MeterState): Record<string, string> {
  const { limits, now } = state;
  const minuteRemaining = Math.max(0, limits.perMinute - state.minuteUsed);
  const dayRemaining = Math.max(0, limits.perDay - state.dayUsed);
  const slotFreesAt = state.oldestInWindow === null ? now : state.oldestInWindow + MINUTE_MS;
  const minuteT = Math.max(0, Math.ceil((slotFreesAt - now) / 1000));
  const dayT = Math.max(1, Math.ceil((state.nextMidnight - now) / 1000));
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(limits.perMinute),
    "X-RateLimit-Remaining": String(minuteRemaining),
    "X-RateLimit-Daily-Limit": String(limits.perDay),
    "X-RateLimit-Daily-Remaining": String(dayRemaining),
    "X-RateLimit-Reset": String(Math.ceil(slotFreesAt / 1000)),
    "RateLimit-Policy": `"minute";q=${limits.perMinute};w=60, "day";q=${limits.perDay};w=86400`,
    RateLimit: dayRemaining === 0 ? `"day";r=0;t=${dayT}` : `"minute";r=${minuteRemaining};t=${minuteT}`,
  };
  if (state.retryAfter !== undefined) headers["Retry-After"] = String(state.retryAfter);
  return headers;
}

/** The 429 message; its number of seconds equals Retry-After. */
export function denialMessage(code: DenialCode, state: MeterState & { retryAfter: number }): string {
  if (code === "RATE_LIMITED") {
    const n = state.limits.perMinute;
    return `rate limit exceeded: ${n} ${n === 1 ? "request" : "requests"}/minute. Retry in ${state.retryAfter}s.`;
  }
  const n = state.limits.perDay;
  const resetsAt = new Date(state.nextMidnight).toISOString().replace(".000Z", "Z");
  return `daily quota exceeded: ${n} ${n === 1 ? "request" : "requests"}/day. Resets at ${resetsAt}.`;
}
