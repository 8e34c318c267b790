/**
 * A lone heavy rolling request on one compute thread and split across two (README.md § Operations,
 * Splitting heavy requests), side by side in one run, on a generated universe in a SQLite file:
 *  1. the compute pool alone: the same request on a 1-thread and a 2-thread pool, taking turns;
 *     wall time and each compute thread's CPU time, whose busier thread's (its part and maybe the
 *     join) is the wall time two free cores give, whatever else loads the machine; and, on this
 *     thread, the CPU time of the whole computation against its two halves' and the join's;
 *  2. the server process with --compute-threads 1 and 2, taking turns: while one user's heavy
 *     request computes, /health is polled every 20 ms and another user sends a small request every
 *     200 ms; their latencies and the heavy request's wall time.
 * Run: npx bun bench/split-heavy.bench.ts [--symbols 200] [--rounds 7] [--server-rounds 3]
 */
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { mintToken } from "../src/auth/index.ts";
import { systemClock } from "../src/clock.ts";
import { startComputePool } from "../src/compute/compute-threads.ts";
import { serialise } from "../src/compute/serialise.ts";
import { inputOf } from "../src/compute/series-source.ts";
import { computeChart, computeChartPartSteps, joinChart } from "../src/engine/chart.ts";
import { parseChartParams } from "../src/http/params/params.ts";
import { createLogger } from "../src/logger.ts";
import { writeBigUniverse } from "../test/support/big-universe.ts";
import { threadCpuMs } from "../test/support/engine/cpu-time.ts";
import { SECRET, sampleDb } from "../test/support/http/harness.ts";
import { spawnServer } from "../test/support/http/process.ts";

const { values } = parseArgs({
  options: {
    symbols: { type: "string", default: "200" },
    rounds: { type: "string", default: "7" },
    "server-rounds": { type: "string", default: "3" },
  },
});
const SYMBOLS = Number(values.symbols);
const ROUNDS = Number(values.rounds);
const SERVER_ROUNDS = Number(values["server-rounds"]);
const HEAVY = "periods=100&graph_method=knn&knn_k=50&include_graph=true";

const db = sampleDb();
writeBigUniverse(db, "big", SYMBOLS, 1300);
const symbols = Array.from({ length: SYMBOLS }, (_, i) => `B${String(i).padStart(4, "0")}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;

// 1. The pool alone. The estimate (ms of one core) only has to clear the split threshold.
const parsed = parseChartParams(new URLSearchParams(`universe=big&${HEAVY}`), { defaultUniverse: "big" });
if (!parsed.ok) throw new Error(parsed.errors.join("; "));
const { params, format } = parsed;
const pools = { one: startComputePool(1, createLogger("silent")), two: startComputePool(2, createLogger("silent")) };
/** CPU ms of each compute thread of this process so far (Linux: /proc/self/task, 10 ms ticks). */
const workerCpu = (): Map<string, number> => {
  const out = new Map<string, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) !== "Worker") continue;
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    out.set(tid, (Number(f[11]) + Number(f[12])) * 10);
  }
  return out;
};
const run = async (pool: typeof pools.one, lookback: number) => {
  const before = workerCpu();
  const t0 = performance.now();
  const out = await pool.compute({ db, symbols }, { ...params, lookback }, "bench", undefined, 10_000);
  const wall = performance.now() - t0;
  const spent = [...workerCpu()].map(([tid, ms]) => ms - (before.get(tid) ?? 0));
  return { wall, cpu: spent.reduce((a, b) => a + b, 0), busiest: Math.max(...spent), body: out.body };
};
const loadBefore = os.loadavg()[0]!.toFixed(1);
// Warm-up: every thread loads the series once (its cache then serves the rounds), and the JIT warms.
await Promise.all([run(pools.one, 251), run(pools.two, 251)]);
await run(pools.two, 250);
type Run = { wall: number; cpu: number; busiest: number };
const rounds: { one: Run; two: Run }[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const lookback = 252 - (r % 2); // the same request on both sides of a round
  const order = r % 2 === 0 ? (["one", "two"] as const) : (["two", "one"] as const);
  const got: Record<string, Awaited<ReturnType<typeof run>>> = {};
  for (const side of order) got[side] = await run(pools[side], lookback);
  if (got.one!.body !== got.two!.body) throw new Error("the split answer differs from the one-thread answer");
  rounds.push({ one: got.one!, two: got.two! });
  console.error(
    `round ${r + 1}: 1 thread ${got.one!.wall.toFixed(0)} ms (CPU ${got.one!.cpu}), 2 threads ${got.two!.wall.toFixed(0)} ms (CPU ${got.two!.cpu}, busier ${got.two!.busiest})`,
  );
}
pools.one.stop();
pools.two.stop();
const ratios = rounds.map((r) => r.two.wall / r.one.wall);
const cpuRatios = rounds.map((r) => r.two.busiest / r.one.busiest);

// 1b. The critical path in CPU time of this thread: what the split's wall time is on two free cores.
const input = inputOf({ db, symbols }, params);
const cpuOf = <T>(f: () => T): [number, T] => {
  const t0 = threadCpuMs();
  const v = f();
  return [threadCpuMs() - t0, v];
};
const part = (index: number) => {
  const steps = computeChartPartSteps(input, params, index, 2);
  for (;;) {
    const r = steps.next();
    if (r.done) return structuredClone(r.value); // as the thread's reply is copied
  }
};
const paths: { whole: number; parts: [number, number]; join: number }[] = [];
for (let r = 0; r < Math.min(ROUNDS, 3); r++) {
  const [whole] = cpuOf(() => serialise(computeChart(input, params).data, format));
  const [a, pa] = cpuOf(() => part(0));
  const [b, pb] = cpuOf(() => part(1));
  const [join] = cpuOf(() => serialise(joinChart(input.symbols, params, [pa, pb]).data, format));
  paths.push({ whole, parts: [a, b], join });
}
const pathRatios = paths.map((x) => (Math.max(...x.parts) + x.join) / x.whole);

// 2. The server: /health and another user's small requests while one heavy request computes.
const token = async (user: string) => (await mintToken({ secret: SECRET, userId: user, ttlSeconds: 3600, clock: systemClock })).token;
const [heavyToken, smallToken] = await Promise.all([token("heavy"), token("small")]);
type ServerRun = { heavy: number; health: number[]; small: number[] };
const serverRuns: Record<"1" | "2", ServerRun[]> = { "1": [], "2": [] };
let variant = 0;
for (let r = 0; r < SERVER_ROUNDS; r++) {
  for (const threads of r % 2 === 0 ? (["1", "2"] as const) : (["2", "1"] as const)) {
    const server = await spawnServer(
      ["--port", "0", "--db", db, "--jwt-secret", SECRET, "--no-sample", "--compute-threads", threads, "--log-level", "warn"].concat([
        "--rate-per-minute",
        "100000",
        "--rate-per-day",
        "1000000",
      ]),
      { timeoutMs: 60_000, source: true },
    );
    const get = (q: string, t: string) =>
      fetch(`${server.base}/v1/graph-stats/chart?${q}`, { headers: { Authorization: `Bearer ${t}` } }).then(async (res) => {
        if (res.status !== 200) throw new Error(`answered ${res.status}: ${await res.text()}`);
        return res.arrayBuffer();
      });
    // Warm-up: each thread's series cache and the JIT (a split request reaches both threads: it must
    // be estimated at SPLIT_FROM_MS or more, which 20 as-ofs no longer were once the paths got faster).
    await get("universe=big&periods=40&graph_method=knn&knn_k=50&include_graph=true&lookback=30", heavyToken);
    await get("universe=big&periods=40&graph_method=knn&knn_k=50&include_graph=true&lookback=31", heavyToken);
    const out: ServerRun = { heavy: 0, health: [], small: [] };
    let done = false;
    const t0 = performance.now();
    const heavy = get(`universe=big&${HEAVY}&lookback=${200 + r}`, heavyToken).then(() => {
      out.heavy = performance.now() - t0;
      done = true;
    });
    const health = (async () => {
      while (!done) {
        const s = performance.now();
        await (await fetch(`${server.base}/health`)).text();
        out.health.push(performance.now() - s);
        await Bun.sleep(20);
      }
    })();
    const small = (async () => {
      await Bun.sleep(100);
      while (!done) {
        const s = performance.now();
        // Never cached: a different lookback each time.
        await get(`symbols=B0001,B0002,B0003,B0004,B0005,B0006,B0007,B0008&lookback=${20 + (variant++ % 200)}`, smallToken);
        out.small.push(performance.now() - s);
        await Bun.sleep(200);
      }
    })();
    await Promise.all([heavy, health, small]);
    await server.stop();
    serverRuns[threads].push(out);
    console.error(`server, ${threads} thread(s): heavy ${out.heavy.toFixed(0)} ms, ${out.small.length} small requests`);
  }
}

const ms = (x: number) => `${x.toFixed(0)} ms`;
const f1 = (x: number) => `${x.toFixed(1)} ms`;
const lines = [
  "### Splitting a heavy request across idle compute threads",
  "",
  `Command: \`npx bun bench/split-heavy.bench.ts --symbols ${SYMBOLS} --rounds ${ROUNDS} --server-rounds ${SERVER_ROUNDS}\` — ` +
    `\`${HEAVY}\` (lookback 251–252) on ${SYMBOLS} generated symbols × 1,300 daily bars in a SQLite file; the threads load the series themselves (warm caches).`,
  "",
  `**The compute pool alone**, 1 thread vs 2 (the job split in two), taking turns (${ROUNDS} rounds). Wall time depends on what else the machine runs; ` +
    "the busier compute thread's CPU time (the other's part and the join run beside or after it) is what the wall time is on two free cores:",
  "",
  "| round | 1 thread wall | 2 threads wall | 2 ÷ 1 wall | 1 thread CPU | 2 threads CPU, both | 2 threads CPU, busier | 2 (busier) ÷ 1 CPU |",
  "|---|---|---|---|---|---|---|---|",
  ...rounds.map(
    (r, i) =>
      `| ${i + 1} | ${ms(r.one.wall)} | ${ms(r.two.wall)} | ${(r.two.wall / r.one.wall).toFixed(2)}× | ${ms(r.one.cpu)} | ${ms(r.two.cpu)} | ${ms(r.two.busiest)} | ${cpuRatios[i]!.toFixed(2)}× |`,
  ),
  `| median | ${ms(median(rounds.map((r) => r.one.wall)))} | ${ms(median(rounds.map((r) => r.two.wall)))} | **${median(ratios).toFixed(2)}×** | ` +
    `${ms(median(rounds.map((r) => r.one.cpu)))} | ${ms(median(rounds.map((r) => r.two.cpu)))} | ${ms(median(rounds.map((r) => r.two.busiest)))} | **${median(cpuRatios).toFixed(2)}×** |`,
  `| load average (1 min) before, after | ${loadBefore} | ${os.loadavg()[0]!.toFixed(1)} | | | | | |`,
  "",
  `**Critical path** (CPU time of one thread, in process, ${paths.length} rounds): the whole computation and serialising vs each half of the as-ofs and the join (community tracking, payload, serialising):`,
  "",
  "| round | whole | part 1 | part 2 | join | (slower part + join) ÷ whole |",
  "|---|---|---|---|---|---|",
  ...paths.map(
    (x, i) => `| ${i + 1} | ${ms(x.whole)} | ${ms(x.parts[0])} | ${ms(x.parts[1])} | ${ms(x.join)} | ${pathRatios[i]!.toFixed(2)}× |`,
  ),
  `| median | | | | | **${median(pathRatios).toFixed(2)}×** |`,
  "",
  `**The server**, \`--compute-threads\` 1 vs 2, while one user's heavy request computes (${SERVER_ROUNDS} rounds each, taking turns; /health every 20 ms, another user's small 8-symbol request every 200 ms):`,
  "",
  "| threads | heavy request wall | /health p50 | /health p99 | /health max | small request p50 | small request max |",
  "|---|---|---|---|---|---|---|",
  ...(["1", "2"] as const).map((t) => {
    const runs = serverRuns[t];
    const health = runs.flatMap((x) => x.health);
    const small = runs.flatMap((x) => x.small);
    return `| ${t} | ${runs.map((x) => ms(x.heavy)).join(", ")} | ${f1(quantile(health, 0.5))} | ${f1(quantile(health, 0.99))} | ${f1(Math.max(...health))} | ${ms(quantile(small, 0.5))} | ${ms(Math.max(...small))} |`;
  }),
];
console.log(lines.join("\n"));
process.exit(0);
