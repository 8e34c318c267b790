import { expect, test } from "bun:test";
import { createMetrics, metricsAllowList } from "./metrics.ts";
import { UNAVAILABLE_REASONS } from "./unavailable-reason.ts";

test("metrics render the counters, the histogram and the scraped gauges", async () => {
  let depth = 3;
  const m = createMetrics({
    computeQueueDepth: () => depth,
    cacheBytes: () => 1234,
    dbConnectionsInUse: () => 1,
    computeJobs: () => ({ engine: 7, render: 2 }),
  });
  m.request("/health", 200);
  m.request("/health", 200);
  m.request("/v1/graph-stats/chart", 429);
  m.decision("admitted");
  m.decision("RATE_LIMITED");
  m.computed(12);
  depth = 5;
  const text = await m.render();
  expect(text).toContain('graphstats_http_requests_total{route="/health",status="200"} 2');
  expect(text).toContain('graphstats_http_requests_total{route="/v1/graph-stats/chart",status="429"} 1');
  expect(text).toContain('graphstats_meter_decisions_total{outcome="RATE_LIMITED"} 1');
  expect(text).toContain('graphstats_compute_seconds_bucket{le="0.025"} 1');
  expect(text).toContain("graphstats_compute_queue_depth 5");
  expect(text).toContain("graphstats_result_cache_bytes 1234");
  expect(text).toContain('graphstats_compute_jobs_total{kind="engine"} 7');
  expect(text).toContain('graphstats_compute_jobs_total{kind="render"} 2');
  expect(text).toContain("graphstats_process_cpu_seconds_total");
});

test.each([
  [["127.0.0.1", "::1"], "127.0.0.1", true],
  [["127.0.0.1", "::1"], "::1", true],
  [["127.0.0.1", "::1"], "10.0.0.5", false],
  [["10.0.0.0/8"], "10.200.3.4", true],
  [["10.0.0.0/8"], "::ffff:10.200.3.4", true],
  [["10.0.0.0/8"], "192.168.1.1", false],
  [["*"], "203.0.113.9", true],
  [["127.0.0.1"], null, false],
] as const)("allow list %p admits %p: %p", (entries, ip, allowed) => {
  expect(metricsAllowList([...entries])(ip)).toBe(allowed);
});

test("a bad allow-list entry is refused with its text", () => {
  expect(() => metricsAllowList(["10.0.0.0/33"])).toThrow("10.0.0.0/33");
  expect(() => metricsAllowList(["prometheus.internal"])).toThrow("prometheus.internal");
});

test("503s by reason start at 0 for every reason; tokens counted; the database and meter gauges read when scraped", async () => {
  let up: boolean | Promise<boolean> = true;
  let failing = false;
  const m = createMetrics({
    computeQueueDepth: () => 0,
    cacheBytes: () => 0,
    dbConnectionsInUse: () => 0,
    databaseUp: () => up,
    meterWriteFailing: () => failing,
  });
  let text = await m.render();
  for (const reason of UNAVAILABLE_REASONS) expect(text).toContain(`graphstats_unavailable_total{reason="${reason}"} 0`);
  expect(text).toContain("graphstats_tokens_generated_total 0");
  expect(text).toContain("graphstats_database_up 1");
  expect(text).toContain("graphstats_meter_write_failing 0");
  m.unavailable("database_busy");
  m.unavailable("database_busy");
  m.tokenGenerated();
  up = Promise.resolve(false);
  failing = true;
  text = await m.render();
  expect(text).toContain('graphstats_unavailable_total{reason="database_busy"} 2');
  expect(text).toContain('graphstats_unavailable_total{reason="shutting_down"} 0');
  expect(text).toContain("graphstats_tokens_generated_total 1");
  expect(text).toContain("graphstats_database_up 0");
  expect(text).toContain("graphstats_meter_write_failing 1");
  // A probe that throws is a database down, not a failed scrape.
  up = Promise.reject(new Error("ECONNREFUSED"));
  expect(await m.render()).toContain("graphstats_database_up 0");
});
