import { describe, expect, test } from "bun:test";
import type { Exchange, RunReport } from "../lib/types.ts";
import { jsonReport } from "./json.ts";
import { junitReport, xmlEscape } from "./junit.ts";
import { textReport } from "./text.ts";

const exchange: Exchange = {
  method: "GET",
  url: "http://127.0.0.1:1/v1/graph-stats/chart",
  path: "/v1/graph-stats/chart",
  requestHeaders: { Authorization: "Bearer <JWT alg=HS256 sub=a exp=…>" },
  status: 429,
  headers: new Headers({ "retry-after": "47", "x-ratelimit-remaining": "0", "x-unrelated": "hidden" }),
  body: `{"success":false,"errors":[{"code":"RATE_LIMITED","message":"<&\\"x\\u0001>"}]}${"y".repeat(1000)}`,
  json: undefined,
  sentAt: 0,
  receivedAt: 1,
};

const report: RunReport = {
  baseUrl: "http://127.0.0.1:1",
  profile: "core",
  meteredCallsSpent: 2,
  budget: 3,
  startedAt: "2026-11-22T00:00:00.000Z",
  ms: 12,
  results: [
    { id: "a.pass", title: "passes", cites: "docs/api.md § The envelope", profile: "core", outcome: "passed", evidence: [], ms: 1 },
    {
      id: "b.fail",
      title: 'fails <here> & "there"',
      cites: "docs/api.md § Errors",
      profile: "core",
      outcome: "failed",
      reason: "Retry-After is 47 & \u0007bad",
      evidence: [exchange],
      ms: 2,
    },
    {
      id: "c.skip",
      title: "skips",
      cites: "docs/api.md § Metering",
      profile: "full",
      outcome: "skipped",
      reason: "needs --secret",
      evidence: [],
      ms: 0,
    },
  ],
};

describe("reporters", () => {
  test("text: evidence shows request, status, the concerned headers and a bounded body excerpt; summary is last", () => {
    const out = textReport(report);
    const lines = out.trimEnd().split("\n");
    expect(lines.at(-1)).toBe("1 passed, 1 failed, 1 skipped");
    expect(out).toContain("> GET http://127.0.0.1:1/v1/graph-stats/chart");
    expect(out).toContain("< 429");
    expect(out).toContain("< retry-after: 47");
    expect(out).not.toContain("x-unrelated");
    expect(out).toContain("(1");
    expect(out).not.toContain("y".repeat(500));
    expect(out).toContain("skipped: needs --secret");
  });

  test("json: parses, counts, carries evidence", () => {
    const doc = JSON.parse(jsonReport(report));
    expect(doc.summary).toEqual({ passed: 1, failed: 1, skipped: 1, line: "1 passed, 1 failed, 1 skipped" });
    expect(doc.results[1].evidence[0]).toMatchObject({ status: 429, headers: { "retry-after": "47" } });
    expect(doc.metered_calls_spent).toBe(2);
  });

  test("junit: counts and escapes markup and XML-illegal control characters", () => {
    const xml = junitReport(report);
    expect(xml).toContain('tests="3" failures="1" skipped="1"');
    expect(xml).toContain('message="Retry-After is 47 &amp; bad"');
    expect(xml).toContain("fails &lt;here&gt; &amp; &quot;there&quot;");
    expect(xml).toContain('<skipped message="needs --secret"/>');
    expect(xml).not.toMatch(/[\x00-\x08\x0B\x0C\x0E-\x1F]/);
    // Every element opened is closed: a cheap well-formedness proxy without an XML parser.
    expect((xml.match(/<testcase /g) ?? []).length).toBe(3);
    expect((xml.match(/<\/testcase>|<testcase [^>]*\/>/g) ?? []).length).toBe(3);
  });

  test("xmlEscape", () => {
    expect(xmlEscape(`<a b="c">'&'</a>\u0000`)).toBe("&lt;a b=&quot;c&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;");
  });
});
