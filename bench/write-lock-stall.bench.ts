/**
 * /health and refused requests while another process holds SQLite's write lock (issue #12 item 7):
 * a real server process on a sample database, another process holding BEGIN IMMEDIATE for 3 s, and
 * meanwhile /health polled every 20 ms and a burst of 401s, a known user's 400s and first-time
 * users' 400s. Their latencies, which src/metering/write-lock-stall.test.ts leaves out: it asserts
 * only that all of them are answered while the lock is held and their rows written after it.
 * Run: npx bun bench/write-lock-stall.bench.ts [--hold-ms 3000] [--burst 40]
 */
import { parseArgs } from "node:util";
import { mintToken } from "../src/auth/index.ts";
import { systemClock } from "../src/clock.ts";
import { SECRET, sampleDb } from "../test/support/http/harness.ts";
import { spawnServer } from "../test/support/http/process.ts";
import { holdWriteLock } from "../test/support/write-lock-holder.ts";

const { values } = parseArgs({ options: { "hold-ms": { type: "string", default: "3000" }, burst: { type: "string", default: "40" } } });
const HOLD_MS = Number(values["hold-ms"]);
const BURST = Number(values.burst);
const NEWCOMERS = 10;

const token = async (user: string) => (await mintToken({ secret: SECRET, userId: user, ttlSeconds: 3600, clock: systemClock })).token;
async function timed(url: string, headers: Record<string, string> = {}): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - t0 };
}
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;

const db = sampleDb();
const server = await spawnServer(["--port", "0", "--no-sample", "--default-universe", "sample"], {
  env: { GRAPH_STATS_JWT_SECRET: SECRET, GRAPH_STATS_DB: db, GRAPH_STATS_LOG_LEVEL: "warn" },
});
const bearer = { Authorization: `Bearer ${await token("lock-stall-user")}` };
const newcomers = await Promise.all(Array.from({ length: NEWCOMERS }, (_, i) => token(`first-timer-${i}`)));
await timed(`${server.base}/v1/graph-stats/chart?lookback=oops`, bearer); // the user exists before the lock
await Bun.sleep(1200); // its row flushed (the meter writes every second)

const locker = await holdWriteLock(db, HOLD_MS);
const lockedAt = performance.now();
const health: number[] = [];
const polling = (async () => {
  while (performance.now() - lockedAt < HOLD_MS - 200) {
    health.push((await timed(`${server.base}/health`)).ms);
    await Bun.sleep(20);
  }
})();
await Bun.sleep(100);
const burst = await Promise.all([
  ...Array.from({ length: BURST }, (_, i) =>
    timed(`${server.base}/v1/graph-stats/chart?lookback=20&n=${i}`, { Authorization: `Bearer nope-${i}` }),
  ),
  ...Array.from({ length: BURST }, (_, i) => timed(`${server.base}/v1/graph-stats/chart?lookback=bad-${i}`, bearer)),
  ...newcomers.map((t, i) => timed(`${server.base}/v1/graph-stats/chart?lookback=new-${i}`, { Authorization: `Bearer ${t}` })),
]);
await polling;
const released = await locker.ended();
await server.stop();

const max = (xs: { ms: number }[]) => Math.max(...xs.map((r) => r.ms)).toFixed(1);
console.log(
  [
    "## Another process holding SQLite's write lock",
    "",
    `Command: \`npx bun bench/write-lock-stall.bench.ts\` — a \`serve\` process on a sample database; another process holds BEGIN IMMEDIATE for ${HOLD_MS} ms ` +
      `(it let go ${released}), while /health is polled every 20 ms and ${BURST} 401s, ${BURST} 400s of a known user and ${NEWCOMERS} first-time users' 400s arrive at once.`,
    "",
    "| /health polls | p50 | p99 | max | 401s max | 400s max | first-timers max |",
    "|---|---|---|---|---|---|---|",
    `| ${health.length} | ${quantile(health, 0.5).toFixed(1)} ms | ${quantile(health, 0.99).toFixed(1)} ms | ${Math.max(...health).toFixed(1)} ms | ` +
      `${max(burst.slice(0, BURST))} ms | ${max(burst.slice(BURST, 2 * BURST))} ms | ${max(burst.slice(2 * BURST))} ms |`,
  ].join("\n"),
);
