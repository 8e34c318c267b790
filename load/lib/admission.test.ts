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
