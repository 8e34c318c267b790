import { afterAll, beforeAll, expect, test } from "bun:test";
import { body, startHarness, type Harness } from "../../../test/support/http/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

test("GET /metrics from loopback: Prometheus text with the requests, decisions and compute time just made", async () => {
  const token = await h.token("metrics-user");
  expect((await h.get("/v1/graph-stats/chart?lookback=30", { token })).status).toBe(200);
  expect((await h.get("/v1/graph-stats/chart?lookback=30", { token })).status).toBe(429);
  await h.get("/no/such/path/123");
  const res = await h.get("/metrics");
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  const text = await res.text();
  expect(text).toContain('graphstats_http_requests_total{route="/v1/graph-stats/chart",status="200"} 1');
  expect(text).toContain('graphstats_http_requests_total{route="/v1/graph-stats/chart",status="429"} 1');
  expect(text).toContain('graphstats_http_requests_total{route="unmatched",status="404"} 1');
  expect(text).not.toContain("/no/such/path");
  expect(text).toContain('graphstats_meter_decisions_total{outcome="admitted"} 1');
  expect(text).toContain('graphstats_meter_decisions_total{outcome="RATE_LIMITED"} 1');
  expect(text).toContain("graphstats_compute_seconds_count 1");
  expect(text).toMatch(/graphstats_result_cache_bytes [1-9]\d*/);
  expect(text).toContain("graphstats_compute_queue_depth 0");
  // Unmetered: the meter did not move.
  const after = await h.get("/v1/graph-stats/chart?lookback=30", { token });
  expect(after.headers.get("x-ratelimit-daily-remaining")).toBe("29");
});

test("GET /metrics from an address not on the list is refused with an envelope", async () => {
  const other = await startHarness({ metricsAllow: "10.0.0.0/8" });
  try {
    const res = await other.get("/metrics");
    expect(res.status).toBe(403);
    expect((await body(res)).errors[0].message).toContain("--metrics-allow");
    expect((await other.get("/metrics", { method: "POST" })).status).toBe(405);
  } finally {
    await other.stop();
  }
});
