import { test, expect } from "bun:test";
import { decide, type WindowInput, windowOf } from "./windows.ts";
import { denialMessage, rateLimitHeaders } from "./headers.ts";

const T = Date.parse("2026-11-22T10:00:00.250Z");

function denied(input: WindowInput) {
  const d = decide(input);
  if (d.ok) throw new Error("expected a denial");
  return { d, headers: rateLimitHeaders(d.state), message: denialMessage(d.code, { ...d.state, retryAfter: d.retryAfter }) };
}

test("an admitted first request: full header set, window starting now", () => {
  const d = decide({ now: T, minute: windowOf([]), dayCount: 0, limits: { perMinute: 1, perDay: 30 } });
  expect(rateLimitHeaders(d.state)).toEqual({
    "X-RateLimit-Limit": "1",
    "X-RateLimit-Remaining": "0",
    "X-RateLimit-Daily-Limit": "30",
    "X-RateLimit-Daily-Remaining": "29",
    "X-RateLimit-Reset": String(Math.ceil((T + 60_000) / 1000)),
    "RateLimit-Policy": '"minute";q=1;w=60, "day";q=30;w=86400',
    RateLimit: '"minute";r=0;t=60',
  });
});

test("an empty window resets at ceil(now) and frees in 0 s", () => {
  const h = rateLimitHeaders({
    now: T,
    limits: { perMinute: 5, perDay: 100 },
    minuteUsed: 0,
    dayUsed: 3,
    oldestInWindow: null,
    nextMidnight: Date.parse("2026-11-23T00:00:00Z"),
  });
  expect(h["X-RateLimit-Reset"]).toBe(String(Math.ceil(T / 1000)));
  expect(h.RateLimit).toBe('"minute";r=5;t=0');
  expect(h["X-RateLimit-Daily-Remaining"]).toBe("97");
  expect(h["RateLimit-Policy"]).toBe('"minute";q=5;w=60, "day";q=100;w=86400');
  expect(h["Retry-After"]).toBeUndefined();
});

test("RATE_LIMITED: Retry-After equals the message's number and agrees with Reset within 1 s", () => {
  for (const elapsed of [1, 999, 1000, 13_000, 30_500, 59_999]) {
    const { d, headers, message } = denied({ now: T + elapsed, minute: windowOf([T]), dayCount: 1, limits: { perMinute: 1, perDay: 30 } });
    const retry = Number(headers["Retry-After"]);
    expect(message).toBe(`rate limit exceeded: 1 request/minute. Retry in ${retry}s.`);
    expect(retry).toBe(d.retryAfter);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(Math.abs(Number(headers["X-RateLimit-Reset"]) - (T + elapsed) / 1000 - retry)).toBeLessThanOrEqual(1);
    expect(headers.RateLimit).toBe(`"minute";r=0;t=${retry}`);
  }
});

test("RATE_LIMITED with a plural limit", () => {
  const { message, headers } = denied({
    now: T + 20_000,
    minute: windowOf([T, T + 1, T + 2]),
    dayCount: 3,
    limits: { perMinute: 3, perDay: 30 },
  });
  expect(message).toBe("rate limit exceeded: 3 requests/minute. Retry in 40s.");
  expect(headers["X-RateLimit-Remaining"]).toBe("0");
  expect(headers["X-RateLimit-Daily-Remaining"]).toBe("27");
});

test("DAILY_QUOTA_EXCEEDED: the day policy binds, message names the next UTC midnight", () => {
  const now = Date.parse("2026-11-22T23:59:00Z");
  const { headers, message } = denied({ now, minute: windowOf([now - 30_000]), dayCount: 30, limits: { perMinute: 1, perDay: 30 } });
  expect(message).toBe("daily quota exceeded: 30 requests/day. Resets at 2026-11-23T00:00:00Z.");
  expect(headers["Retry-After"]).toBe("60");
  expect(headers.RateLimit).toBe('"day";r=0;t=60');
  expect(headers["X-RateLimit-Daily-Remaining"]).toBe("0");
});

test("DAILY_QUOTA_EXCEEDED with a limit of 1 is singular", () => {
  const { message } = denied({ now: T, minute: windowOf([]), dayCount: 1, limits: { perMinute: 5, perDay: 1 } });
  expect(message).toBe("daily quota exceeded: 1 request/day. Resets at 2026-11-23T00:00:00Z.");
});

test("the last request of the day admitted: RateLimit reports the day policy", () => {
  const d = decide({ now: T, minute: windowOf([]), dayCount: 29, limits: { perMinute: 10, perDay: 30 } });
  expect(rateLimitHeaders(d.state).RateLimit).toBe(`"day";r=0;t=${Math.ceil((Date.parse("2026-11-23T00:00:00Z") - T) / 1000)}`);
});
