import { describe, expect, test } from "bun:test";
import { DEFAULT_LIVE_QUERY, dueMs, limitsForRun, liveAnswer, requestsPerUser, userIndex, vusForRate } from "./live.js";

const HEADERS = {
  "Content-Type": "application/json; charset=utf-8",
  "X-Request-Id": "r1",
  "X-Ratelimit-Limit": "63",
  "X-Ratelimit-Remaining": "40",
  "X-Ratelimit-Daily-Limit": "1000",
  "X-Ratelimit-Daily-Remaining": "900",
  "X-Ratelimit-Reset": "1000",
  "Ratelimit-Policy": '"minute";q=63;w=60, "day";q=1000;w=86400',
  Ratelimit: '"minute";r=40;t=30',
};
const body = (cached: unknown) =>
  JSON.stringify({
    success: true,
    data: { stocks: [] },
    errors: [],
    meta: { generated_at: "2026-11-27T15:00:00Z", diagnostics: { cached } },
  });

describe("live.js arithmetic", () => {
  test("iterations take the users in turn", () => {
    expect([0, 1, 999, 1000, 1001, 2500].map((n) => userIndex(n, 1000))).toEqual([0, 1, 999, 0, 1, 500]);
  });
  test("VUs: 100 ms of answers pre-allocated, a second's worth at most", () => {
    expect(vusForRate(500)).toEqual({ preAllocated: 50, max: 500 });
    expect(vusForRate(20)).toEqual({ preAllocated: 10, max: 100 });
    expect(vusForRate(5000)).toEqual({ preAllocated: 500, max: 5000 });
  });
  test("1000 users at 500/s: each sends every 2 s, at most 31 in any minute, 30 a 1-minute run", () => {
    expect(requestsPerUser({ rate: 500, users: 1000, seconds: 60 })).toEqual({ perMinute: 31, perRun: 30 });
    expect(requestsPerUser({ rate: 500, users: 1000, seconds: 600 })).toEqual({ perMinute: 31, perRun: 300 });
  });
  test("the server limits leave twice that, and 1000/day at least", () => {
    expect(limitsForRun({ rate: 500, users: 1000, seconds: 60 })).toEqual({ ratePerMinute: 63, ratePerDay: 1000 });
    expect(limitsForRun({ rate: 500, users: 1000, seconds: 3600 })).toEqual({ ratePerMinute: 63, ratePerDay: 3601 });
    expect(limitsForRun({ rate: 10, users: 1000, seconds: 60 })).toEqual({ ratePerMinute: 3, ratePerDay: 1000 });
  });
  test("iteration n is due n arrivals after the start", () => {
    expect(dueMs(1000, 0, 500)).toBe(1000);
    expect(dueMs(1000, 250, 500)).toBe(1500);
  });
  test("the default query is the small cached one", () => expect(DEFAULT_LIVE_QUERY).toBe("lookback=60"));
});

describe("liveAnswer", () => {
  test("a cached 200 with every header has no problem", () => {
    expect(liveAnswer({ status: 200, headers: HEADERS, body: body(true) }, null)).toEqual({ problems: [], cached: true });
  });
  test("a computed answer is reported as such", () => {
    expect(liveAnswer({ status: 200, headers: HEADERS, body: body(false) }, null).cached).toBe(false);
  });
  test("a missing cached flag, a bad body or a missing header is a problem", () => {
    expect(liveAnswer({ status: 200, headers: HEADERS, body: body(undefined) }, null).problems).toEqual([
      "bad-envelope: meta.diagnostics.cached is not a boolean",
    ]);
    expect(liveAnswer({ status: 200, headers: HEADERS, body: "<html>" }, null).problems[0]).toMatch(/^bad-json/);
    const { Ratelimit: _, ...lacking } = HEADERS;
    expect(liveAnswer({ status: 200, headers: lacking, body: body(true) }, null).problems).toEqual(["missing-header: RateLimit"]);
  });
  test("without a body (responseType none) only the headers are judged", () => {
    expect(liveAnswer({ status: 200, headers: HEADERS, body: null }, null)).toEqual({ problems: [], cached: null });
    expect(liveAnswer({ status: 200, headers: { ...HEADERS, "X-Ratelimit-Remaining": "63" }, body: null }, null).problems).toEqual([
      "bad-header: admitted request left X-RateLimit-Remaining at 63 of 63",
    ]);
  });
});
