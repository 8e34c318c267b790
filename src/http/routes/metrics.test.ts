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
  // Freshness: the sample's newest bars, per interval (2025-09-30 local midnight and 15:29 at +05:30).
  expect(text).toContain(
    `graphstats_universe_last_bar_timestamp_seconds{universe="sample",interval="1d"} ${Date.parse("2025-09-30T00:00:00+05:30") / 1000}`,
  );
  expect(text).toContain(
    `graphstats_universe_last_bar_timestamp_seconds{universe="sample",interval="1m"} ${Date.parse("2025-09-30T15:29:00+05:30") / 1000}`,
  );
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

/** The status of a raw request line, as a proxy or an attacker would send it (fetch normalises paths). */
async function rawStatus(port: number, path: string, host = "127.0.0.1"): Promise<number> {
  const reply = await new Promise<string>((resolve, reject) => {
    let text = "";
    Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        open(s) {
          s.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
        },
        data(_s, d) {
          text += d.toString();
        },
        close() {
          resolve(text);
        },
        error(_s, e) {
          reject(e);
        },
      },
    }).catch(reject);
  });
  return Number(reply.slice(9, 12));
}

test("/metrics is served at that exact path only: a trailing slash, dot segments or doubled slashes are 404", async () => {
  const port = h.server.port;
  expect(await rawStatus(port, "/metrics")).toBe(200);
  for (const path of ["/metrics/", "/metrics/.", "/./metrics/", "//metrics", "/metrics//", "/x/../metrics/"]) {
    expect({ path, status: await rawStatus(port, path) }).toEqual({ path, status: 404 });
  }
});

test("/metrics refuses a Host that names another domain (DNS rebinding); IPs, localhost and the public host are served", async () => {
  const port = h.server.port;
  expect(await rawStatus(port, "/metrics", "attacker.example")).toBe(403);
  expect(await rawStatus(port, "/metrics", `attacker.example:${port}`)).toBe(403);
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, "[::1]", "10.1.2.3:9100"]) {
    expect({ host, status: await rawStatus(port, "/metrics", host) }).toEqual({ host, status: 200 });
  }
  const pub = await startHarness({ publicUrl: "https://stats.example.com" });
  try {
    expect(await rawStatus(pub.server.port, "/metrics", "stats.example.com")).toBe(200);
    expect(await rawStatus(pub.server.port, "/metrics", "other.example.com")).toBe(403);
  } finally {
    await pub.stop();
  }
});
