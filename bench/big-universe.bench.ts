/**
 * Issue #20's big-universe target, end to end against the real server process: a 2,000-symbol
 * universe (generated, 300 daily bars), lookback 252, rolling knn over 25 as-ofs (the 50,000-point
 * cap) with the default metrics (include_graph=false: the cap leaves no room for edges), timed from the client (request sent to
 * body read). The server runs once with one compute thread and once with one per core, taking
 * turns; each round asks for another as-of so nothing comes from the result cache.
 * Run: npx bun bench/big-universe.bench.ts [--rounds 3] [--symbols 2000]
 */
import { parseArgs } from "node:util";
import { availableParallelism } from "node:os";
import { mintToken } from "../src/auth/index.ts";
import { systemClock } from "../src/clock.ts";
import { requestCost } from "../src/compute/request-cost.ts";
import { parseChartParams } from "../src/http/params/params.ts";
import { writeBigUniverse } from "../test/support/big-universe.ts";
import { SECRET, sampleDb } from "../test/support/http/harness.ts";
import { spawnServer } from "../test/support/http/process.ts";
import { median } from "./median.ts";
import { cpuMs } from "./wrk.ts";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "3" }, symbols: { type: "string", default: "2000" } } });
const ROUNDS = Number(values.rounds);
const SYMBOLS = Number(values.symbols);
const DAYS = 300;
// include_graph=false: 25 × 2,000 values fill the 50,000-point cap, leaving no room for edge rows.
const QUERY = "periods=25&lookback=252&graph_method=knn&include_graph=false";

const db = sampleDb();
const lastDate = writeBigUniverse(db, "big", SYMBOLS, DAYS);
const parsed = parseChartParams(new URLSearchParams(QUERY), { defaultUniverse: "big" });
if (!parsed.ok) throw new Error(parsed.errors.join("; "));
const estimate = requestCost(parsed.params, SYMBOLS);

/** The as-of of round r: a weekday r weekdays before the last bar (the calendar has room for 24). */
function asof(r: number): string {
  let t = Date.parse(`${lastDate}T00:00:00Z`);
  for (let k = 0; k < r; ) {
    t -= 86_400_000;
    const dow = new Date(t).getUTCDay();
    if (dow !== 0 && dow !== 6) k++;
  }
  return new Date(t).toISOString().slice(0, 10);
}

async function serve(threads: number) {
  return spawnServer(
    [
      ...["--port", "0", "--db", db, "--jwt-secret", SECRET, "--no-sample", "--compute-threads", String(threads)],
      ...["--rate-per-minute", "1000", "--rate-per-day", "100000", "--log-level", "warn"],
    ],
    { timeoutMs: 120_000, source: true },
  );
}

const threadsMany = Math.max(1, Math.min(8, availableParallelism()));
const times: Record<string, number[]> = { one: [], many: [] };
const cpu: Record<string, number[]> = { one: [], many: [] };
const token = (await mintToken({ secret: SECRET, userId: "quant", ttlSeconds: 3600, clock: systemClock })).token;
let round = 0;
for (let r = 0; r < ROUNDS; r++) {
  for (const [label, threads] of [
    ["one", 1],
    ["many", threadsMany],
  ] as const) {
    const server = await serve(threads);
    try {
      // Loads the universe's series once (the market cache), so the timed request is the computation and its answer.
      const warm = await fetch(`${server.base}/v1/graph-stats/chart?universe=big&periods=1&lookback=2&metrics=degree_strength`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      await warm.arrayBuffer();
      const c0 = cpuMs(server.proc.pid);
      const t0 = performance.now();
      const res = await fetch(`${server.base}/v1/graph-stats/chart?universe=big&${QUERY}&asof=${asof(round++)}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const body = await res.text();
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`${label}: ${res.status} ${body.slice(0, 300)}`);
      const used = cpuMs(server.proc.pid) - c0;
      times[label]!.push(ms);
      cpu[label]!.push(used);
      console.error(
        `round ${r + 1}, ${threads} thread(s): ${Math.round(ms)} ms, server CPU ${Math.round(used)} ms, ${(body.length / 1e6).toFixed(1)} MB`,
      );
    } finally {
      await server.stop();
    }
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const one = median(times.one!);
const many = median(times.many!);
console.log(`### A 2,000-symbol universe, end to end

${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} cores. Command: \`npx bun bench/big-universe.bench.ts --rounds ${ROUNDS} --symbols ${SYMBOLS}\` —
\`universe=big&${QUERY}\` (default metrics: all five) on ${SYMBOLS} generated symbols × ${DAYS} daily
bars in a SQLite file, against the real server, from request to the body read, each round another
as-of (no cached answer), the universe's series loaded by a small request first. The cost estimate:
${s(estimate)} of one core (the default budget is 10 s).

| compute threads | rounds | wall median | min | max | server CPU median |
|---|---|---|---|---|---|
| 1 | ${ROUNDS} | ${s(one)} | ${s(Math.min(...times.one!))} | ${s(Math.max(...times.one!))} | ${s(median(cpu.one!))} |
| ${threadsMany} | ${ROUNDS} | ${s(many)} | ${s(Math.min(...times.many!))} | ${s(Math.max(...times.many!))} | ${s(median(cpu.many!))} |

${threadsMany} threads ÷ 1: ${(many / one).toFixed(2)}× (median).`);
