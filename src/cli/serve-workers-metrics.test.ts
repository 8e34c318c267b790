/**
 * `serve --workers 2`: every scrape of /metrics, whichever worker the kernel hands it to, counts
 * every request once (src/http/worker-metrics.ts). A real supervisor and its two workers on one
 * port; each request on a connection of its own, so the kernel spreads them over both workers.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mintToken } from "../auth/index.ts";
import { systemClock } from "../clock.ts";
import { sampleDb } from "../../test/support/http/harness.ts";
import { spawnServer, type ServerProcess } from "../../test/support/http/process.ts";
import { samples } from "../../test/support/metrics-text.ts";

const SECRET = "workers-metrics-secret-0123456789";
const USERS = 12;
const PER_USER = 3; // the default limit is 1 a minute: 1 admitted, 2 RATE_LIMITED each
const SCRAPES = 6;
const CHART = "/v1/graph-stats/chart";

let s: ServerProcess;
beforeAll(async () => {
  s = await spawnServer(
    ["--port", "0", "--db", sampleDb(), "--no-sample", "--default-universe", "sample", "--workers", "2", "--jwt-secret", SECRET],
    { listening: 2 },
  );
}, 120_000); // the first spawn of a changed tree compiles the binary first (test/support/binary.ts)
afterAll(() => {
  if (s && s.proc.exitCode === null) s.proc.kill("SIGKILL");
});

const fresh = { Connection: "close" };

test("each scrape of a --workers 2 server sums both workers: every request counted once; it then stops cleanly", async () => {
  const statuses: number[] = [];
  for (let u = 0; u < USERS; u++) {
    const { token } = await mintToken({ secret: SECRET, userId: `metrics-user-${u}`, ttlSeconds: 3600, clock: systemClock });
    for (let i = 0; i < PER_USER; i++) {
      const res = await fetch(`${s.base}${CHART}?lookback=20`, { headers: { ...fresh, Authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
  }
  expect(statuses.filter((x) => x === 200)).toHaveLength(USERS);
  expect(statuses.filter((x) => x === 429)).toHaveLength(USERS * (PER_USER - 1));

  for (let scrape = 0; scrape < SCRAPES; scrape++) {
    const res = await fetch(`${s.base}/metrics`, { headers: fresh });
    expect(res.status).toBe(200);
    const text = await res.text();
    const decisions = samples(text, "graphstats_meter_decisions_total");
    const requests = samples(text, "graphstats_http_requests_total");
    expect({
      scrape,
      workers: samples(text, "graphstats_workers_reporting").get(""),
      admitted: decisions.get('{outcome="admitted"}'),
      refused: decisions.get('{outcome="RATE_LIMITED"}'),
      chart200: requests.get(`{route="${CHART}",status="200"}`),
      chart429: requests.get(`{route="${CHART}",status="429"}`),
      // The scrapes before this one; each is counted once it is answered.
      metrics200: requests.get('{route="/metrics",status="200"}') ?? 0,
    }).toEqual({
      scrape,
      workers: 2,
      admitted: USERS,
      refused: USERS * (PER_USER - 1),
      chart200: USERS,
      chart429: USERS * (PER_USER - 1),
      metrics200: scrape,
    });
  }

  // The workers' IPC listeners must not hold them open: SIGTERM still ends everything with 0.
  expect(await s.stop("SIGTERM")).toBe(0);
}, 60_000);
