/**
 * admit() latency on a real file database (WAL, synchronous=NORMAL, as served).
 * Usage: bun bench/metering.bench.ts [calls=5000] [users=500] [historyRows=100000]
 * The history rows (earlier days, spread over the same users) make the index realistic.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../db/open.ts";
import { systemClock } from "../src/clock.ts";
import { createSqliteMeter } from "../src/metering/meter-sqlite.ts";

const [calls = 5000, users = 500, history = 100_000] = process.argv.slice(2).map(Number);
const dir = mkdtempSync(join(tmpdir(), "gs-bench-meter-"));
const { sqlite } = openDatabase(join(dir, "bench.sqlite"));

const insertHistory = sqlite.prepare(
  "INSERT INTO request_log (request_id, user_id, ts, status, counted, params) VALUES (?, ?, ?, 200, 1, '{}')",
);
sqlite.transaction(() => {
  const start = Date.now() - 30 * 86_400_000;
  for (let i = 0; i < history; i++) insertHistory.run(`h${i}`, `user-${i % users}`, start + i * 1000);
})();

const meter = createSqliteMeter(sqlite, systemClock);
const limits = { perMinute: 1_000_000, perDay: 1_000_000 };
const run = (n: number, tag: string) => {
  const samples = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t0 = Bun.nanoseconds();
    meter.admit({ userId: `user-${i % users}`, limits, requestId: `${tag}${i}`, params: { interval: "1d", lookback: 60 } });
    samples[i] = (Bun.nanoseconds() - t0) / 1000;
  }
  return samples.sort();
};

run(500, "warm-");
const s = run(calls, "r-");
const pct = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(1);
console.log(`### Metering transaction

\`meter.admit()\` alone — BEGIN IMMEDIATE, read both windows, decide, insert the audit row, COMMIT —
on a real WAL file with ${history.toLocaleString("en")} older rows, ${calls} calls over ${users} users:

| median µs | p95 µs | p99 µs | max µs | target |
|---|---|---|---|---|
| **${pct(0.5)}** | ${pct(0.95)} | ${pct(0.99)} | ${s[s.length - 1].toFixed(1)} | median < 200 µs |
`);
sqlite.close();
rmSync(dir, { recursive: true, force: true });
