import { test, expect } from "bun:test";
import { decide, peekState, type DenialCode, type WindowInput, windowOf } from "./windows.ts";

const T = Date.parse("2026-11-22T10:00:00Z");
const DEFAULT = { perMinute: 1, perDay: 30 };

type Expected = { ok: true; minuteUsed: number; dayUsed: number } | { ok: false; code: DenialCode; retryAfter: number };

const cases: [string, WindowInput, Expected][] = [
  [
    "first request of the day is admitted",
    { now: T, minute: windowOf([]), dayCount: 0, limits: DEFAULT },
    { ok: true, minuteUsed: 1, dayUsed: 1 },
  ],
  [
    "second request in the same minute is denied",
    { now: T + 13_000, minute: windowOf([T]), dayCount: 1, limits: DEFAULT },
    { ok: false, code: "RATE_LIMITED", retryAfter: 47 },
  ],
  [
    "59.999 s after the admitted one is denied with Retry-After 1",
    { now: T + 59_999, minute: windowOf([T]), dayCount: 1, limits: DEFAULT },
    { ok: false, code: "RATE_LIMITED", retryAfter: 1 },
  ],
  [
    "a fraction of a second rounds Retry-After up",
    { now: T + 12_001, minute: windowOf([T]), dayCount: 1, limits: DEFAULT },
    { ok: false, code: "RATE_LIMITED", retryAfter: 48 },
  ],
  [
    "per-user higher limit: 10th request in a minute is admitted",
    {
      now: T + 5_000,
      minute: windowOf(Array.from({ length: 9 }, (_, i) => T + i * 100)),
      dayCount: 9,
      limits: { perMinute: 10, perDay: 1000 },
    },
    { ok: true, minuteUsed: 10, dayUsed: 10 },
  ],
  [
    "per-user higher limit: 11th request in a minute is denied",
    {
      now: T + 5_000,
      minute: windowOf(Array.from({ length: 10 }, (_, i) => T + i * 100)),
      dayCount: 10,
      limits: { perMinute: 10, perDay: 1000 },
    },
    { ok: false, code: "RATE_LIMITED", retryAfter: 55 },
  ],
  [
    "a lowered limit waits for enough entries to leave, not just the oldest",
    { now: T + 30_000, minute: windowOf([T, T + 10_000, T + 20_000]), dayCount: 3, limits: { perMinute: 2, perDay: 30 } },
    { ok: false, code: "RATE_LIMITED", retryAfter: 40 },
  ],
  [
    "an entry stamped after now (another process's clock) still counts",
    { now: T, minute: windowOf([T + 500]), dayCount: 1, limits: DEFAULT },
    { ok: false, code: "RATE_LIMITED", retryAfter: 61 },
  ],
  [
    "daily quota used up is DAILY_QUOTA_EXCEEDED until midnight",
    { now: Date.parse("2026-11-22T22:00:00Z"), minute: windowOf([]), dayCount: 30, limits: DEFAULT },
    { ok: false, code: "DAILY_QUOTA_EXCEEDED", retryAfter: 7200 },
  ],
  [
    "both exhausted is DAILY_QUOTA_EXCEEDED",
    { now: T + 1_000, minute: windowOf([T]), dayCount: 30, limits: DEFAULT },
    { ok: false, code: "DAILY_QUOTA_EXCEEDED", retryAfter: 50_399 },
  ],
  [
    "at 23:59:59.500 the day resets in 1 s (never 0)",
    { now: Date.parse("2026-11-22T23:59:59.500Z"), minute: windowOf([]), dayCount: 30, limits: DEFAULT },
    { ok: false, code: "DAILY_QUOTA_EXCEEDED", retryAfter: 1 },
  ],
  [
    "the first request after midnight: a new day, the minute window spanning midnight",
    {
      now: Date.parse("2026-11-23T00:00:00Z"),
      minute: windowOf([Date.parse("2026-11-22T23:59:30Z")]),
      dayCount: 0,
      limits: { perMinute: 100, perDay: 2 },
    },
    { ok: true, minuteUsed: 2, dayUsed: 1 },
  ],
  [
    "29 of 30 used and the minute free is admitted",
    { now: T, minute: windowOf([]), dayCount: 29, limits: DEFAULT },
    { ok: true, minuteUsed: 1, dayUsed: 30 },
  ],
];

test.each(cases)("%s", (_name, input, expected) => {
  const d = decide(input);
  if (expected.ok) {
    expect(d.ok).toBe(true);
    expect({ minuteUsed: d.state.minuteUsed, dayUsed: d.state.dayUsed }).toEqual({
      minuteUsed: expected.minuteUsed,
      dayUsed: expected.dayUsed,
    });
  } else {
    expect(d.ok ? { ok: true } : { ok: false, code: d.code, retryAfter: d.retryAfter }).toEqual(expected);
    expect(d.state.retryAfter).toBe(expected.retryAfter);
  }
});

test("an admitted request becomes the oldest entry of an empty window", () => {
  const d = decide({ now: T, minute: windowOf([]), dayCount: 0, limits: DEFAULT });
  expect(d.state.oldestInWindow).toBe(T);
  expect(d.state.nextMidnight).toBe(Date.parse("2026-11-23T00:00:00Z"));
});

test("peekState changes nothing", () => {
  expect(peekState({ now: T, minute: windowOf([T - 1000]), dayCount: 4, limits: DEFAULT })).toEqual({
    now: T,
    limits: DEFAULT,
    minuteUsed: 1,
    dayUsed: 4,
    oldestInWindow: T - 1000,
    nextMidnight: Date.parse("2026-11-23T00:00:00Z"),
  });
});
