/**
 * How `serve --workers N` combines its workers' registries into one scrape (worker-metrics.ts
 * combine): two real registries (createMetrics) with different counts and gauges, summed where a
 * sum is the truth and taken at the extreme where a bound or a failure is per worker.
 */
import { expect, test } from "bun:test";
import { createMetrics, type MetricsSources } from "./metrics.ts";
import { combine } from "./worker-metrics.ts";
import { samples } from "../../test/support/metrics-text.ts";

const worker = (s: Partial<MetricsSources> & { queue: number; cache: number; admitted: number; up: boolean; failing: boolean }) =>
  createMetrics({
    computeQueueDepth: () => s.queue,
    cacheBytes: () => s.cache,
    dbConnectionsInUse: () => 1,
    admittedBytes: () => s.admitted,
    databaseUp: () => s.up,
    meterWriteFailing: () => s.failing,
    lastBars: async () => [{ universe: "sample", interval: "1d", ts: s.queue === 1 ? 2_000_000 : 1_000_000 }],
  });

test("counters and the histogram are summed; gauges summed, or the fullest, the stalest, the failing worker's", async () => {
  const a = worker({ queue: 1, cache: 100, admitted: 500, up: true, failing: false });
  const b = worker({ queue: 2, cache: 50, admitted: 900, up: false, failing: true });
  a.request("/v1/graph-stats/chart", 200);
  a.request("/v1/graph-stats/chart", 429);
  b.request("/v1/graph-stats/chart", 429);
  a.decision("admitted");
  b.decision("RATE_LIMITED");
  b.decision("RATE_LIMITED");
  a.computed(3);
  b.computed(40);

  const [ja, jb] = [await a.json(), await b.json()];
  // One worker stuck behind a long task: its lag is what a scrape must show, not the average.
  const lag = (j: typeof ja, v: number) =>
    j.map((m) => (m.name === "graphstats_nodejs_eventloop_lag_p99_seconds" ? { ...m, values: [{ value: v, labels: {} }] } : m));
  const text = await combine([lag(ja, 0.002), lag(jb, 1.5)]);

  expect(samples(text, "graphstats_http_requests_total")).toEqual(
    new Map([
      ['{route="/v1/graph-stats/chart",status="200"}', 1],
      ['{route="/v1/graph-stats/chart",status="429"}', 2],
    ]),
  );
  expect(samples(text, "graphstats_meter_decisions_total")).toEqual(
    new Map([
      ['{outcome="admitted"}', 1],
      ['{outcome="RATE_LIMITED"}', 2],
      ['{outcome="DAILY_QUOTA_EXCEEDED"}', 0],
    ]),
  );
  expect(samples(text, "graphstats_compute_seconds_count").get("")).toBe(2);
  expect(samples(text, "graphstats_compute_seconds_bucket").get('{le="0.005"}')).toBe(1);
  expect({
    queue: samples(text, "graphstats_compute_queue_depth").get(""),
    cache: samples(text, "graphstats_result_cache_bytes").get(""),
    connections: samples(text, "graphstats_db_connections_in_use").get(""),
    admitted: samples(text, "graphstats_admitted_bytes").get(""),
    up: samples(text, "graphstats_database_up").get(""),
    failing: samples(text, "graphstats_meter_write_failing").get(""),
    lastBar: samples(text, "graphstats_universe_last_bar_timestamp_seconds").get('{universe="sample",interval="1d"}'),
    lagP99: samples(text, "graphstats_nodejs_eventloop_lag_p99_seconds").get(""),
    workers: samples(text, "graphstats_workers_reporting").get(""),
    startTime: samples(text, "graphstats_process_start_time_seconds").get(""),
  }).toEqual({
    queue: 3,
    cache: 150,
    connections: 2,
    admitted: 900,
    up: 0,
    failing: 1,
    lastBar: 1000,
    lagP99: 1.5,
    workers: 2,
    startTime: undefined,
  });
});
