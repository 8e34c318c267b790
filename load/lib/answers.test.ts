import { describe, expect, test } from "bun:test";
import { expectedRefusal, liveEnvelopeProblems, queryHint, rateLimitedMessage, refusalProblems } from "./answers.js";
import type { BadTokenCase } from "./jwt.js";

const META = { generated_at: "2026-11-22T10:00:00Z" };
const error = (code: string, message: string) => JSON.stringify({ success: false, errors: [{ code, message }], data: null, meta: META });
const minuteUsed = { "X-Ratelimit-Limit": "1", "Retry-After": "42" };

describe("liveEnvelopeProblems", () => {
  test("a 200 needs data.stocks; errors may be absent", () => {
    expect(
      liveEnvelopeProblems({ status: 200, headers: {}, body: JSON.stringify({ success: true, data: { stocks: [] }, meta: META }) }, "core"),
    ).toEqual([]);
    expect(
      liveEnvelopeProblems(
        { status: 200, headers: {}, body: JSON.stringify({ success: "true", data: { stocks: [] }, meta: META }) },
        "core",
      ),
    ).toEqual(["bad-envelope: success is not a boolean"]);
  });
  test("a RATE_LIMITED 429 reads the message the interface gives, with Retry-After's seconds", () => {
    const ok = error("RATE_LIMITED", "rate limit exceeded: 1 request/minute. Retry in 42s.");
    expect(liveEnvelopeProblems({ status: 429, headers: minuteUsed, body: ok }, "core")).toEqual([]);
    const off = error("RATE_LIMITED", "rate limit exceeded: 1 request/minute. Retry in 72s.");
    expect(liveEnvelopeProblems({ status: 429, headers: minuteUsed, body: off }, "core")).toEqual([
      "wrong-message: expected 'rate limit exceeded: 1 request/minute. Retry in 42s.', got 'rate limit exceeded: 1 request/minute. Retry in 72s.'",
    ]);
    expect(rateLimitedMessage(2, "3")).toBe("rate limit exceeded: 2 requests/minute. Retry in 3s.");
  });
  test("any other 429 must be DAILY_QUOTA_EXCEEDED, with a message of its own", () => {
    expect(liveEnvelopeProblems({ status: 429, headers: {}, body: error("DAILY_QUOTA_EXCEEDED", "renews tomorrow") }, "core")).toEqual([]);
    expect(liveEnvelopeProblems({ status: 429, headers: {}, body: error("SLOW_DOWN", "x") }, "core")).toEqual([
      "wrong-code: expected DAILY_QUOTA_EXCEEDED, got SLOW_DOWN",
    ]);
  });
});

describe("expectedRefusal", () => {
  const cases: [string, number, number | null, ReturnType<typeof expectedRefusal>][] = [
    ["the minute runs out first", 1, 20, "RATE_LIMITED"],
    ["the day runs out first", 3, 1, "DAILY_QUOTA_EXCEEDED"],
    ["both at once: either (the interface leaves it open)", 2, 2, null],
    ["no daily header: the minute", 0, null, "RATE_LIMITED"],
  ];
  for (const [name, remaining, daily, want] of cases) test(name, () => expect(expectedRefusal(remaining, daily)).toBe(want));
});

describe("queryHint", () => {
  test("a plain request refused for its parameters says to pass QUERY", () => {
    expect(queryHint({ status: 422, headers: {}, body: error("INVALID_PARAMETER", "interval is required") }, "")).toBe(
      "the live endpoint answered 422 INVALID_PARAMETER to '?': pass -e QUERY=... with the parameters it requires",
    );
    for (const status of [200, 401, 429, 500]) expect(queryHint({ status, headers: {}, body: "" }, "")).toBeNull();
  });
});

describe("refusalProblems", () => {
  const forged: BadTokenCase = {
    name: "forged",
    core: true,
    authorization: "Bearer a.b.c",
    message: "invalid token signature",
    tokenSent: true,
  };
  const expired: BadTokenCase = { ...forged, name: "expired", message: "token expired — generate a new token" };
  // The second implementation's answers: its own codes and messages, no challenge.
  const python = {
    status: 401,
    headers: { "Content-Type": "application/json" },
    body: error("INVALID_TOKEN", "the token signature does not verify"),
  };
  test("core: any 4xx refusal in the error envelope", () => {
    expect(refusalProblems(python, forged, "core")).toEqual([]);
    expect(refusalProblems({ ...python, status: 403 }, forged, "core")).toEqual([]);
    expect(refusalProblems({ ...python, status: 200 }, forged, "core")).toEqual(["wrong-status: 200, expected a 4xx refusal"]);
  });
  test("core: an expired token is 401 UNAUTHORIZED saying it expired", () => {
    const ok = { ...python, body: error("UNAUTHORIZED", "the token expired at 2026-11-22T09:00:00Z") };
    expect(refusalProblems(ok, expired, "core")).toEqual([]);
    expect(refusalProblems({ ...ok, body: error("UNAUTHORIZED", "unauthorized") }, expired, "core")).toEqual([
      "wrong-message: expected '/expired/i', got 'unauthorized'",
    ]);
    expect(refusalProblems({ ...ok, status: 403 }, expired, "core")).toEqual(["wrong-status: 403 to an expired token, expected 401"]);
  });
  test("full: graph-stats' exact 401, message and headers", () => {
    const problems = refusalProblems(python, forged, "full");
    expect(problems).toContain("wrong-code: expected UNAUTHORIZED, got INVALID_TOKEN");
    expect(problems).toContain("missing-header: WWW-Authenticate");
    expect(problems).toContain("missing-header: X-Request-Id");
  });
});
