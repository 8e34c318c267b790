import { describe, expect, test } from "bun:test";
import {
  checkCommonHeaders,
  checkRateLimitHeaders,
  checkUnmetered,
  headerValue,
  parsePolicy,
  parseRateLimits,
  problemKind,
} from "./headers.js";

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

describe("checkRateLimitHeaders in the core profile", () => {
  // The second implementation's forms: no IETF headers, no request id, no charset.
  const python = live({
    Ratelimit: undefined,
    "Ratelimit-Policy": undefined,
    "X-Request-Id": undefined,
    "Content-Type": "application/json",
  });
  test("asks only for the five X-RateLimit-* headers (and Retry-After on a 429), not the IETF ones", () => {
    expect(checkRateLimitHeaders(python, 200, null, NOW, { profile: "core" })).toEqual([]);
    expect(checkRateLimitHeaders(python, 200, null, NOW)).toEqual(["missing-header: RateLimit-Policy", "missing-header: RateLimit"]);
    expect(checkRateLimitHeaders(live({ "X-Ratelimit-Daily-Limit": undefined }), 200, null, NOW, { profile: "core" })).toEqual([
      "missing-header: X-RateLimit-Daily-Limit",
    ]);
  });
  test("tells the two 429s apart by the window each names", () => {
    const minuteUsed = { "X-Ratelimit-Remaining": "0", "Retry-After": "30" };
    expect(checkRateLimitHeaders(live(minuteUsed), 429, "RATE_LIMITED", NOW, { profile: "core" })).toEqual([]);
    expect(checkRateLimitHeaders(live(minuteUsed), 429, "DAILY_QUOTA_EXCEEDED", NOW, { profile: "core" })).toEqual([
      "bad-header: DAILY_QUOTA_EXCEEDED with X-RateLimit-Daily-Remaining 29",
    ]);
    expect(checkRateLimitHeaders(live({ "X-Ratelimit-Remaining": "0" }), 429, "RATE_LIMITED", NOW, { profile: "core" })).toEqual([
      "missing-header: Retry-After on 429",
    ]);
  });
  test("limits given must be the limits announced", () => {
    const given = { perMinute: 1, perDay: 30 };
    expect(checkRateLimitHeaders(live(), 200, null, NOW, { profile: "core", given })).toEqual([
      "bad-header: X-RateLimit-Limit 2, but the limit given (LIMIT_PER_MINUTE) is 1",
    ]);
    expect(checkRateLimitHeaders(live(), 200, null, NOW, { profile: "core", given: { perMinute: null, perDay: null } })).toEqual([]);
  });
});

describe("checkUnmetered", () => {
  test("a public endpoint carries no rate-limit header", () => {
    expect(checkUnmetered({ "Content-Type": "application/json" }, "/health")).toEqual([]);
    expect(checkUnmetered({ "X-Ratelimit-Limit": "1", "Retry-After": "3" }, "/health")).toEqual([
      "bad-header: X-RateLimit-Limit on /health, which is unmetered",
      "bad-header: Retry-After on /health, which is unmetered",
    ]);
  });
});

describe("checkCommonHeaders", () => {
  test("are graph-stats' own: nothing is asked in the core profile", () => {
    expect(checkCommonHeaders({ "content-type": "text/plain" }, "core")).toEqual([]);
  });
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
