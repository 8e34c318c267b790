import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildSummary, cloneOutDir, p95Growth, summaryOutputs, summaryPath, summaryText } from "./summary.js";

const ROOT = resolve(import.meta.dir, "../..");

// The shape k6 passes to handleSummary (metrics with values and per-expression threshold outcomes).
const data = {
  state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: 61234.5 },
  metrics: {
    http_reqs: { type: "counter", contains: "default", values: { count: 600, rate: 9.8 } },
    http_req_duration: {
      type: "trend",
      contains: "time",
      values: { avg: 3, min: 1, med: 2, max: 40, "p(90)": 5, "p(95)": 7.5, "p(99)": 20 },
      thresholds: { "p(95)<200": { ok: true } },
    },
    http_req_waiting: { type: "trend", contains: "time", values: { avg: 2 } },
    graphstats_over_admitted: {
      type: "counter",
      contains: "default",
      values: { count: 2, rate: 0.03 },
      thresholds: { "count==0": { ok: false } },
    },
    graphstats_admitted: { type: "counter", contains: "default", values: { count: 40, rate: 0.6 } },
    graphstats_latency_early: { type: "trend", contains: "time", values: { "p(95)": 4 } },
    graphstats_latency_late: { type: "trend", contains: "time", values: { "p(95)": 10 } },
  },
};

describe("buildSummary", () => {
  const s = buildSummary(data, { script: "limits", baseUrl: "http://127.0.0.1:8080", extra: { users: 20 } });
  test("fails when any threshold failed and names it", () => {
    expect(s.passed).toBe(false);
    expect(s.failed_thresholds).toEqual(["graphstats_over_admitted: count==0"]);
    expect(s.thresholds).toEqual([
      { metric: "graphstats_over_admitted", threshold: "count==0", ok: false },
      { metric: "http_req_duration", threshold: "p(95)<200", ok: true },
    ]);
  });
  test("keeps graphstats_* and key http metrics, drops the rest", () => {
    expect(Object.keys(s.metrics)).toEqual([
      "graphstats_admitted",
      "graphstats_latency_early",
      "graphstats_latency_late",
      "graphstats_over_admitted",
      "http_req_duration",
      "http_reqs",
    ]);
    expect(s.duration_s).toBe(61.2);
  });
  test("text names the verdict and every threshold", () => {
    const text = summaryText(s);
    expect(text).toContain("limits against http://127.0.0.1:8080 — FAILED");
    expect(text).toContain("FAIL graphstats_over_admitted: count==0");
    expect(text).toContain("http_req_duration p95=7.50ms p99=20.00ms max=40.00ms");
    expect(text).toContain("users: 20");
    expect(s.instances).toBeNull();
  });
  test("a run over several instances lists each with its counts, in the JSON and the text", () => {
    const instances = [
      { url: "http://a:1", requests: 12, admitted: 5 },
      { url: "http://b:2", requests: 11, admitted: 4 },
    ];
    const multi = buildSummary(data, { script: "limits", baseUrl: "http://a:1,http://b:2", instances });
    expect(multi.base_url).toBe("http://a:1,http://b:2");
    expect(multi.instances).toEqual(instances);
    expect(summaryText(multi)).toContain(
      "  instance http://a:1: requests 12, admitted 5\n  instance http://b:2: requests 11, admitted 4\n",
    );
  });
});

describe("summaryOutputs / p95Growth", () => {
  test("writes the JSON to SUMMARY, else into SUMMARY_DIR, else the clone's load/out/ — never the working directory", () => {
    const file = (env: Record<string, string>) =>
      Object.keys(summaryOutputs(data, { script: "demo", baseUrl: "b" }, env)).filter((k) => k !== "stdout");
    expect(file({ SUMMARY: "/tmp/s.json", SUMMARY_DIR: "/x", TMPDIR: "/t" })).toEqual(["/tmp/s.json"]);
    expect(file({ SUMMARY_DIR: "/work/load/out/", TMPDIR: "/t" })).toEqual(["/work/load/out/demo-summary.json"]);
    // Found from where this module is, whatever the working directory and the temp directory.
    expect(file({ TMPDIR: "/var/tmp/" })).toEqual([join(ROOT, "load", "out", "demo-summary.json")]);
    expect(existsSync(join(ROOT, "load", "out", ".gitignore"))).toBe(true);
    const out = summaryOutputs(data, { script: "demo", baseUrl: "b" }, { SUMMARY: "/tmp/s.json" });
    expect(JSON.parse(out["/tmp/s.json"]).script).toBe("demo");
    expect(out.stdout).toEndWith("  summary JSON: /tmp/s.json\n");
  });
  test("the clone's load/out/ is found from a k6 (file URL) or bun (path) stack trace naming lib/summary.js", () => {
    expect(cloneOutDir("Error: x\n\tat summaryPath (file:///home/me/graph%20stats/load/lib/summary.js:95:10(5))")).toBe(
      "/home/me/graph stats/load/out",
    );
    expect(cloneOutDir("    at summaryPath (/work/gs/load/lib/summary.js:95:10)")).toBe("/work/gs/load/out");
    expect(cloneOutDir("at f (file:///C:/src/gs/load/lib/summary.js:1:1)")).toBe("C:/src/gs/load/out");
    expect(cloneOutDir("at f (file:///x/other.js:1:1)")).toBeNull();
    expect(summaryPath("smoke", {}, "no trace")).toBe("load/out/smoke-summary.json");
  });
  test("growth is late p95 over early p95", () => {
    expect(p95Growth(data, "graphstats_latency_early", "graphstats_latency_late")).toBe(2.5);
    expect(p95Growth(data, "graphstats_latency_early", "missing")).toBeNull();
  });
});
