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

test("the capacity series: the memory bound, the database's filesystem and connections, worker restarts; decisions from 0", async () => {
  let space: { availBytes: number; sizeBytes: number } | null = { availBytes: 2_000, sizeBytes: 10_000 };
  let open: number | null = 42;
  const m = createMetrics({
    computeQueueDepth: () => 0,
    cacheBytes: () => 0,
    dbConnectionsInUse: () => 0,
    admittedLimitBytes: 256 * 2 ** 20,
    dbFilesystem: () => space,
    dbServerConnections: { max: 100, open: async () => open },
    workerRestarts: () => 3,
  });
  let text = await m.render();
  for (const outcome of ["admitted", "RATE_LIMITED", "DAILY_QUOTA_EXCEEDED"])
    expect(text).toContain(`graphstats_meter_decisions_total{outcome="${outcome}"} 0`);
  expect(text).toContain(`graphstats_admitted_limit_bytes ${256 * 2 ** 20}`);
  expect(text).toContain("graphstats_db_filesystem_avail_bytes 2000");
  expect(text).toContain("graphstats_db_filesystem_size_bytes 10000");
  expect(text).toContain("graphstats_db_max_connections 100");
  expect(text).toContain("graphstats_db_server_connections 42");
  expect(text).toContain("graphstats_worker_restarts_total 3");
  // What cannot be read now is NaN, not 0 (0 free bytes would page someone); prom-client writes
  // "Nan", which Prometheus reads as NaN.
  space = null;
  open = null;
  text = await m.render();
  expect(text).toMatch(/^graphstats_db_filesystem_avail_bytes nan$/im);
  expect(text).toMatch(/^graphstats_db_server_connections nan$/im);
  expect(text).toContain("graphstats_db_max_connections 100");
});

test("without their sources the capacity series are absent (SQLite has no connection limit, a lone process no restarts)", async () => {
  const text = await createMetrics({ computeQueueDepth: () => 0, cacheBytes: () => 0, dbConnectionsInUse: () => 0 }).render();
  for (const name of [
    "admitted_limit_bytes",
    "db_filesystem_avail_bytes",
    "db_max_connections",
    "db_server_connections",
    "worker_restarts_total",
  ])
    expect(text).not.toContain(`graphstats_${name}`);
});
