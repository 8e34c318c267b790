import { describe, expect, test } from "bun:test";
import { createLedger, maxCertainInWindow, type Observation } from "./admission.js";

// t in seconds since the user's first request; each request takes 100 ms unless said otherwise.
function obs(t: number, status: number, extra: Partial<Observation> = {}): Observation {
  const startMs = 1_700_000_000_000 + t * 1000;
  return {
    startMs,
    endMs: startMs + 100,
    status,
    code: status === 429 ? "RATE_LIMITED" : null,
    remaining: null,
    dailyRemaining: null,
    ...extra,
  };
}
const LIMITS = { perMinute: 2, perDay: 30 };

describe("maxCertainInWindow", () => {
  test("admissions 59 s apart are certainly in one window", () => {
    expect(maxCertainInWindow([obs(0, 200), obs(30, 200), obs(58, 200)], 1000)).toBe(3);
  });
  test("admissions whose bounds straddle the minute are not counted together", () => {
    expect(maxCertainInWindow([obs(0, 200), obs(59.5, 200)], 1000)).toBe(1);
  });
  test("a slow response widens the uncertainty", () => {
    expect(maxCertainInWindow([obs(0, 200), obs(30, 200, { endMs: 1_700_000_000_000 + 65_000 })], 1000)).toBe(1);
  });
});

describe("ledger", () => {
  test("a first burst that admits exactly the limit is clean", () => {
    const v = createLedger().recordBurst([obs(0, 200), obs(0, 200), obs(0, 429), obs(0, 429)], LIMITS);
    expect(v).toEqual({
      admitted: 2,
      rejected: 2,
      windowAdmissions: 2,
      overAdmitted: 0,
      underAdmitted: 0,
      dailyOverAdmitted: 0,
      staleRemaining: 0,
    });
  });
  test("three admissions in one burst with limit 2 is over-admission", () => {
    const v = createLedger().recordBurst([obs(0, 200), obs(0, 200), obs(0, 200), obs(0, 429)], LIMITS);
    expect(v.overAdmitted).toBe(1);
  });
  test("an admission 25 s after a full window is over-admission", () => {
    const l = createLedger();
    l.recordBurst([obs(0, 200), obs(0, 200)], LIMITS);
    expect(l.recordBurst([obs(25, 200), obs(25, 429)], LIMITS).overAdmitted).toBe(1);
  });
  test("admissions 75 s after the last ones are fine", () => {
    const l = createLedger();
    l.recordBurst([obs(0, 200), obs(0, 200)], LIMITS);
    const v = l.recordBurst([obs(75, 200), obs(75, 200), obs(75, 429)], LIMITS);
    expect([v.overAdmitted, v.underAdmitted, v.windowAdmissions]).toEqual([0, 0, 2]);
  });
  test("a burst into a certainly empty window that admits less than the limit is under-admission", () => {
    const l = createLedger();
    l.recordBurst([obs(0, 200), obs(0, 200)], LIMITS);
    expect(l.recordBurst([obs(75, 200), obs(75, 429), obs(75, 429)], LIMITS).underAdmitted).toBe(1);
  });
  test("a user's first burst is not judged for under-admission: an earlier run may have used the window", () => {
    expect(createLedger().recordBurst([obs(0, 429), obs(0, 429)], LIMITS).underAdmitted).toBe(0);
  });
  test("tokens an earlier run used: no burst within a minute of the first is judged, since that run's admissions may fill it", () => {
    const l = createLedger();
    expect(l.recordBurst([obs(0, 429), obs(0, 429)], LIMITS).underAdmitted).toBe(0);
    expect(l.recordBurst([obs(25, 429), obs(25, 429)], LIMITS).underAdmitted).toBe(0);
    expect(l.recordBurst([obs(50, 429), obs(50, 429)], LIMITS).underAdmitted).toBe(0);
  });
  test("once a minute (plus the margin) has passed since the first burst, an empty window is judged again", () => {
    const l = createLedger();
    l.recordBurst([obs(0, 429), obs(0, 429)], LIMITS);
    expect(l.recordBurst([obs(60.5, 429), obs(60.5, 429)], LIMITS).underAdmitted).toBe(0);
    expect(l.recordBurst([obs(62, 200), obs(62, 429)], LIMITS).underAdmitted).toBe(1);
  });
  test("under-admission is not judged near the minute boundary", () => {
    const l = createLedger();
    l.recordBurst([obs(0, 200), obs(0, 200)], LIMITS);
    expect(l.recordBurst([obs(60.5, 429), obs(60.5, 429)], LIMITS).underAdmitted).toBe(0);
  });
  test("under-admission is not judged once the daily quota is the binding limit", () => {
    const l = createLedger();
    l.recordBurst([obs(0, 200)], LIMITS);
    const v = l.recordBurst([obs(90, 429, { code: "DAILY_QUOTA_EXCEEDED" }), obs(90, 429, { code: "DAILY_QUOTA_EXCEEDED" })], LIMITS);
    expect(v.underAdmitted).toBe(0);
  });
  test("more admissions in a UTC day than the daily limit is daily over-admission", () => {
    const l = createLedger({ marginMs: 1000 });
    const perDay = { perMinute: 2, perDay: 3 };
    l.recordBurst([obs(0, 200), obs(0, 200)], perDay);
    expect(l.recordBurst([obs(70, 200), obs(70, 200)], perDay).dailyOverAdmitted).toBe(1);
  });
  test("a remaining count that ignores an earlier admission is stale", () => {
    const l = createLedger();
    l.recordBurst([obs(0, 200, { remaining: 1 })], LIMITS);
    expect(l.recordBurst([obs(10, 200, { remaining: 1 })], LIMITS).staleRemaining).toBe(1);
    const fresh = createLedger();
    fresh.recordBurst([obs(0, 200, { remaining: 1 })], LIMITS);
    expect(fresh.recordBurst([obs(10, 200, { remaining: 0 })], LIMITS).staleRemaining).toBe(0);
  });
  test("an empty burst is a programming error", () => {
    expect(() => createLedger().recordBurst([], LIMITS)).toThrow("at least one");
  });
});

// The core profile: minute windows of 60 s whose end each answer announces in X-RateLimit-Reset (sliding
// or anchored), and any day window. t0 is the first request; its window resets at t0 + 60.
describe("ledger with announced windows (core)", () => {
  const T0 = 1_700_000_000;
  const at = (t: number, status: number, resetAt: number, extra: Partial<Observation> = {}) =>
    obs(t, status, { reset: T0 + resetAt, ...extra });
  const core = () => createLedger({ marginMs: 1000, windows: "announced" });
  test("an anchored window's last slot and the next window's first, a second apart, are not over-admission", () => {
    // 2/minute, anchored: one admission at 0, one at 58 (window [0, 60)); the next window opens at 61.
    const l = core();
    l.recordBurst([at(0, 200, 60)], LIMITS);
    l.recordBurst([at(58, 200, 60)], LIMITS);
    expect(l.recordBurst([at(61, 200, 121), at(61, 200, 121), at(61, 429, 121)], LIMITS).overAdmitted).toBe(0);
    // The sliding ledger of the full profile would call that over-admission: 3 in [58, 61].
    const full = createLedger();
    full.recordBurst([at(0, 200, 60)], LIMITS);
    full.recordBurst([at(58, 200, 60)], LIMITS);
    expect(full.recordBurst([at(61, 200, 121), at(61, 200, 121)], LIMITS).overAdmitted).toBe(1);
  });
  test("more admissions than the limit in the window an answer names is over-admission", () => {
    expect(core().recordBurst([at(0, 200, 60), at(0, 200, 60), at(0, 200, 60)], LIMITS).overAdmitted).toBe(1);
    const l = core();
    l.recordBurst([at(0, 200, 60), at(0, 200, 60)], LIMITS);
    expect(l.recordBurst([at(25, 200, 60), at(25, 429, 60)], LIMITS).overAdmitted).toBe(1);
  });
  test("answers without X-RateLimit-Reset are counted as in one window (their header problem is reported too)", () => {
    expect(core().recordBurst([obs(0, 200), obs(0, 200), obs(0, 200)], LIMITS).overAdmitted).toBe(1);
  });
  test("a sliding window's resets move by less than a minute, so nothing is excused", () => {
    // graph-stats at 2/minute: each answer's reset is its window's oldest admission + 60 s.
    const l = core();
    l.recordBurst([at(0, 200, 60), at(0, 200, 60)], LIMITS);
    expect(l.recordBurst([at(30, 200, 60)], LIMITS).overAdmitted).toBe(1);
  });
  test("a remaining count is stale only against admissions in the window its own answer names", () => {
    const l = core();
    l.recordBurst([at(0, 200, 60, { remaining: 1 })], LIMITS);
    // Same window: the earlier admission must be counted.
    expect(l.recordBurst([at(10, 200, 60, { remaining: 1 })], LIMITS).staleRemaining).toBe(1);
    const next = core();
    next.recordBurst([at(0, 200, 60, { remaining: 1 })], LIMITS);
    // A new window opened at 61 (anchored): the admission at 0 is not in it.
    expect(next.recordBurst([at(61, 200, 121, { remaining: 1 })], LIMITS).staleRemaining).toBe(0);
  });
  test("the day is whatever window the target keeps: a new one is seen when the daily remaining rises", () => {
    const perDay = { perMinute: 2, perDay: 3 };
    const l = core();
    l.recordBurst([at(0, 200, 60, { dailyRemaining: 2 }), at(0, 200, 60, { dailyRemaining: 1 })], perDay);
    // 24 hours after its first request, say, the day window renewed.
    const renewed = l.recordBurst([at(70, 200, 130, { dailyRemaining: 2 }), at(70, 200, 130, { dailyRemaining: 1 })], perDay);
    expect(renewed.dailyOverAdmitted).toBe(0);
    const same = core();
    same.recordBurst([at(0, 200, 60, { dailyRemaining: 2 }), at(0, 200, 60, { dailyRemaining: 1 })], perDay);
    expect(
      same.recordBurst([at(70, 200, 130, { dailyRemaining: 0 }), at(70, 200, 130, { dailyRemaining: 0 })], perDay).dailyOverAdmitted,
    ).toBe(1);
  });
});

describe("ledger (more)", () => {
  test("an empty burst is still a programming error", () => {
    expect(() => createLedger().recordBurst([], LIMITS)).toThrow("at least one");
  });
});
