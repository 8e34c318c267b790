import { describe, expect, test } from "bun:test";
import {
  intHeader,
  isIsoUtc,
  isToIsoStringForm,
  parseDailyQuotaMessage,
  parseRateLimitedMessage,
  secondsToUtcMidnight,
} from "./spec-forms.ts";

describe("isIsoUtc", () => {
  test.each([
    ["2026-11-22T01:02:03.456Z", true],
    ["2026-11-22T01:02:03Z", true],
    ["2026-11-22T01:02:03+00:00", true],
    ["2026-11-22T01:02:03.1234567Z", true],
    ["2026-11-22T01:02:03.456", false],
    ["2026-11-22T01:02:03+05:30", false],
    ["2026-02-30T01:02:03Z", false],
    ["2026-11-22T24:00:00Z", false],
    ["Sun, 22 Nov 2026 01:02:03 GMT", false],
    ["1763773323000", false],
    [1763773323000, false],
    [null, false],
  ])("%p → %p", (value, expected) => {
    expect(isIsoUtc(value)).toBe(expected);
  });

  test("toISOString() output is always accepted in both forms", () => {
    for (const t of [0, 951782400000, Date.now(), 4102444799999]) {
      const s = new Date(t).toISOString();
      expect(isIsoUtc(s)).toBe(true);
      expect(isToIsoStringForm(s)).toBe(true);
    }
    expect(isToIsoStringForm("2026-11-22T01:02:03Z")).toBe(false);
  });
});

describe("rate-limit messages", () => {
  test("the documented per-minute form parses, with the seconds", () => {
    expect(parseRateLimitedMessage("rate limit exceeded: 1 request/minute. Retry in 47s.")).toEqual({
      limit: 1,
      noun: "request",
      retrySeconds: 47,
    });
    expect(parseRateLimitedMessage("rate limit exceeded: 3 requests/minute. Retry in 5s.")).toEqual({
      limit: 3,
      noun: "requests",
      retrySeconds: 5,
    });
  });

  test.each([
    "Rate limit exceeded: 1 request/minute. Retry in 47s.",
    "rate limit exceeded: 1 request/minute. Retry in 47 s.",
    "rate limit exceeded: 1 request/minute. Retry in 47s",
    "rate limit exceeded: one request/minute. Retry in 47s.",
    "too many requests",
  ])("rejects %p", (m) => {
    expect(parseRateLimitedMessage(m)).toBeUndefined();
  });

  test("the daily form parses", () => {
    expect(parseDailyQuotaMessage("daily quota exceeded: 30 requests/day. Resets at 2026-11-23T00:00:00Z.")).toEqual({
      limit: 30,
      noun: "requests",
      resetsAt: "2026-11-23T00:00:00Z",
    });
    expect(parseDailyQuotaMessage("daily quota exceeded")).toBeUndefined();
  });
});

describe("header and clock helpers", () => {
  test("intHeader accepts only non-negative decimal integers", () => {
    const h = new Headers({ a: "12", b: " 7 ", c: "1.5", d: "-1", e: "Sun, 22 Nov 2026 01:02:03 GMT" });
    expect([intHeader(h, "a"), intHeader(h, "b"), intHeader(h, "c"), intHeader(h, "d"), intHeader(h, "e"), intHeader(h, "z")]).toEqual([
      12,
      7,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  test("secondsToUtcMidnight counts to the next UTC midnight", () => {
    expect(secondsToUtcMidnight(Date.parse("2026-11-22T23:59:30Z"))).toBe(30);
    expect(secondsToUtcMidnight(Date.parse("2026-11-22T00:00:00Z"))).toBe(86400);
    expect(secondsToUtcMidnight(Date.parse("2026-12-31T12:00:00Z"))).toBe(43200);
  });
});
