import { describe, expect, test } from "bun:test";
import { checkCommonHeaders, checkRateLimitHeaders, headerValue, parsePolicy, parseRateLimits, problemKind } from "./headers.js";

// Header names as k6 delivers them (Go canonical form), to prove lookups ignore case.
function live(over: Record<string, string | undefined> = {}): Record<string, string> {
  const base: Record<string, string | undefined> = {
    "Content-Type": "application/json; charset=utf-8",
    "X-Request-Id": "abc",
    "X-Ratelimit-Limit": "2",
    "X-Ratelimit-Remaining": "1",
    "X-Ratelimit-Daily-Limit": "30",
    "X-Ratelimit-Daily-Remaining": "29",
    "X-Ratelimit-Reset": "1000030",
    "Ratelimit-Policy": '"minute";q=2;w=60, "day";q=30;w=86400',
    Ratelimit: '"minute";r=1;t=30',
  };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...base, ...over })) if (v !== undefined) out[k] = v;
  return out;
}
const NOW = 1000000;

describe("headerValue", () => {
  test("is case-insensitive and joins repeated values", () => {
    expect(headerValue({ "x-ratelimit-limit": "1" }, "X-RateLimit-Limit")).toBe("1");
    expect(headerValue({ Vary: ["Origin", "Accept-Encoding"] }, "vary")).toBe("Origin, Accept-Encoding");
    expect(headerValue({}, "Retry-After")).toBeNull();
  });
});

describe("parsePolicy", () => {
  test("reads the IETF list form", () => {
    expect(parsePolicy('"minute";q=1;w=60, "day";q=30;w=86400')).toEqual({ minute: { q: 1, w: 60 }, day: { q: 30, w: 86400 } });
  });
  test("refuses items without q or w", () => {
    expect(parsePolicy('"minute";q=1')).toBeNull();
    expect(parsePolicy("minute=1")).toBeNull();
  });
});

describe("checkRateLimitHeaders", () => {
  const cases: [string, Record<string, string>, number, string | null, string[]][] = [
    ["a consistent 200 passes", live(), 200, null, []],
    ["a missing X-RateLimit-Limit is named", live({ "X-Ratelimit-Limit": undefined }), 200, null, ["missing-header: X-RateLimit-Limit"]],
    [
      "an admitted request cannot leave the full minute allowance",
      live({ "X-Ratelimit-Remaining": "2", Ratelimit: '"minute";r=2;t=0' }),
      200,
      null,
      ["bad-header: admitted request left X-RateLimit-Remaining at 2 of 2"],
    ],
    [
      "remaining above the limit is flagged",
      live({ "X-Ratelimit-Daily-Remaining": "31" }),
      200,
      null,
      [
        "bad-header: X-RateLimit-Daily-Remaining 31 exceeds the daily limit 30",
        "bad-header: admitted request left X-RateLimit-Daily-Remaining at 31 of 30",
      ],
    ],
    [
      "a reset in the past is flagged",
      live({ "X-Ratelimit-Reset": String(NOW - 100) }),
      200,
      null,
      [`bad-header: X-RateLimit-Reset ${NOW - 100} is not within the next minute of ${NOW}`],
    ],
    [
      "a policy that disagrees with the classic headers is flagged",
      live({ "Ratelimit-Policy": '"minute";q=1;w=60, "day";q=30;w=86400' }),
      200,
      null,
      [
        'bad-header: RateLimit-Policy \'"minute";q=1;w=60, "day";q=30;w=86400\' disagrees with X-RateLimit-Limit 2 / X-RateLimit-Daily-Limit 30',
      ],
    ],
    [
      "a 429 RATE_LIMITED with Retry-After and remaining 0 passes",
      live({ "X-Ratelimit-Remaining": "0", "Retry-After": "30", Ratelimit: '"minute";r=0;t=30' }),
      429,
      "RATE_LIMITED",
      [],
    ],
    [
      "a 429 without Retry-After fails",
      live({ "X-Ratelimit-Remaining": "0" }),
      429,
      "RATE_LIMITED",
      ["missing-header: Retry-After on 429"],
    ],
    [
      "Retry-After 0 is not a wait",
      live({ "X-Ratelimit-Remaining": "0", "Retry-After": "0" }),
      429,
      "RATE_LIMITED",
      ["bad-header: Retry-After must be an integer >= 1 second, got '0'"],
    ],
    [
      "RATE_LIMITED while minute slots remain is inconsistent",
      live({ "Retry-After": "30" }),
      429,
      "RATE_LIMITED",
      ["bad-header: RATE_LIMITED with X-RateLimit-Remaining 1"],
    ],
    [
      "DAILY_QUOTA_EXCEEDED may wait until midnight",
      live({ "X-Ratelimit-Daily-Remaining": "0", "Retry-After": "40000" }),
      429,
      "DAILY_QUOTA_EXCEEDED",
      [],
    ],
    [
      "a 429 with another code is a wrong code",
      live({ "Retry-After": "3" }),
      429,
      "BAD_REQUEST",
      ["wrong-code: 429 must carry RATE_LIMITED or DAILY_QUOTA_EXCEEDED, got 'BAD_REQUEST'"],
    ],
    [
      "a malformed RateLimit header is flagged",
      live({ Ratelimit: "limit=1" }),
      200,
      null,
      ["bad-header: RateLimit is not '\"minute\";r=N;t=N' or '\"day\";r=N;t=N': 'limit=1'"],
    ],
  ];
  for (const [name, headers, status, code, want] of cases) {
    test(name, () => expect(checkRateLimitHeaders(headers, status, code, NOW)).toEqual(want));
  }
  test("parseRateLimits reads numbers and nulls non-integers", () => {
    expect(parseRateLimits(live({ "X-Ratelimit-Reset": "soon" }))).toEqual({
      limit: 2,
      remaining: 1,
      dailyLimit: 30,
      dailyRemaining: 29,
      reset: null,
      retryAfter: null,
    });
  });
});

describe("checkCommonHeaders", () => {
  test("requires the JSON content type and a request id", () => {
    expect(checkCommonHeaders({ "content-type": "application/json; charset=utf-8", "x-request-id": "r1" })).toEqual([]);
    expect(checkCommonHeaders({ "content-type": "text/html" })).toEqual([
      "content-type: expected 'application/json; charset=utf-8', got 'text/html'",
      "missing-header: X-Request-Id",
    ]);
  });
  test("problemKind is the prefix before the colon", () => {
    expect(problemKind("missing-header: Retry-After on 429")).toBe("missing-header");
    expect(problemKind("no colon")).toBe("other");
  });
});
