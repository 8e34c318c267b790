/**
 * Loading stored history (issue #41): what a request's series load costs, against what it asks for.
 *  1. In process: cold planned loads over a long and a short stored history (500 symbols × 1,300 and
 *     × 40 daily bars; 10 symbols × 60,000 and × 1,500 one-minute bars read as 1h, 5m and 1d), CPU
 *     per load beside the cost model's `load` term, and the term's coefficient fitted (least squares
 *     on the relative error, as bench/cost-model.bench.ts fits the others).
 *  2. The real server (`--before DIR`: also an older checkout's, side by side): server CPU per
 *     request, each in another symbol order, on the long and the short history; RSS after 100
 *     distinct 500-symbol orders.
 * Run: npx bun bench/series-load.bench.ts [--before /path/to/older/checkout] [--skip-server]
 */
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { mintToken } from "../src/auth/index.ts";
import { systemClock } from "../src/clock.ts";
import { precheck } from "../src/compute/precheck.ts";
import { COST_COEFFICIENTS, costTerms } from "../src/compute/request-cost.ts";
import { SECRET, tempDbPath } from "../test/support/http/harness.ts";
import { spawnServer } from "../test/support/http/process.ts";
import { chartParams } from "./engine-params.ts";
import { calibrateLoads } from "./load-fit.ts";

const { values } = parseArgs({ options: { before: { type: "string" }, "skip-server": { type: "boolean", default: false } } });

const { path, symbols, meta, rows, fit } = await calibrateLoads();
const { LONG, SHORT, MLONG, MSHORT } = symbols;

// 1. Cold planned loads in process.
console.log("### Loading stored history\n");
console.log("Cold planned loads (no cache) over the bars a request's windows cover, one thread's CPU, least of three:\n");
console.log("| request | rows read | CPU ms | ms per million rows | estimate at the fit |\n|---|---:|---:|---:|---:|");
for (const r of rows) {
  console.log(
    `| ${r.label} | ${r.rows} | ${r.ms.toFixed(2)} | ${((r.ms / r.rows) * 1e6).toFixed(0)} | ${((r.rows / 1e6) * fit).toFixed(2)} |`,
  );
}
console.log(`\n\`load\` fitted at ${fit.toFixed(0)} ms per million rows (the code has ${COST_COEFFICIENTS.load}).`);

/** A request's estimate as the precheck makes it; `old`: without the load term, as the cost model had it before. */
async function estimateOf(symbols: string[], q: string, old: boolean): Promise<number> {
  const params = chartParams(q);
  await meta.ready(symbols, params.interval);
  const pre = precheck(meta, symbols, params, 1e12);
  if (!old) return pre.cost;
  const terms = costTerms(params, symbols.length, pre.asofCount, "json");
  return Math.ceil(
    Object.entries(terms).reduce((ms, [t, x]) => ms + (t === "load" ? 0 : x * COST_COEFFICIENTS[t as keyof typeof terms]), 0),
  );
}

// 2. The real server, this checkout's and (--before) an older one's.
if (!values["skip-server"]) {
  // The second run of this checkout with a small series cache shows what RSS grows by beyond the bound.
  const programs: [string, string | undefined, string[]][] = [
    ["this checkout", undefined, []],
    ["this checkout, --series-cache-mb 16", undefined, ["--series-cache-mb", "16"]],
  ];
  if (values.before) {
    const wrapper = join(tempDbPath().replace(/\.sqlite$/, ""), "..", "before.sh");
    writeFileSync(wrapper, `#!/bin/sh\nexec ${process.execPath} ${join(values.before, "src/cli.ts")} "$@"\n`);
    chmodSync(wrapper, 0o755);
    programs.unshift(["before", wrapper, []]);
  }
  console.log(
    "\nThe real server: its CPU per request (each in another symbol order; the first, then the median of the rest), RSS after 100 distinct 500-symbol orders:\n",
  );
  console.log("| server | request | history | first ms | median ms | RSS MB before → after |\n|---|---|---|---:|---:|---|");
  for (const [label, bin] of programs) {
    const server = await spawnServer(
      [
        "--port",
        "0",
        "--db",
        path,
        "--jwt-secret",
        SECRET,
        "--no-sample",
        "--rate-per-minute",
        "100000",
        "--rate-per-day",
        "1000000",
        "--log-level",
        "warn",
        "--cache-mb",
        "0",
      ],
      { timeoutMs: 60_000, bin, source: true },
    );
    const pid = server.proc.pid;
    const cpuMs = () => {
      const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
    };
    const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
    const { token } = await mintToken({ secret: SECRET, userId: `bench-${label}`, ttlSeconds: 3600, clock: systemClock });
    const ask = async (q: string) => {
      const res = await fetch(`${server.base}/v1/graph-stats/chart?${q}`, { headers: { Authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${label}: ${res.status} for ${q.slice(0, 80)}`);
    };
    const shuffled = (xs: string[], seed: number) => {
      let s = seed;
      return [...xs].sort(() => (s = (s * 48271) % 2147483647) / 2147483647 - 0.5);
    };
    const perRequest = async (symbols: string[], q: string, count: number) => {
      const ask1 = (i: number) => ask(`symbols=${encodeURIComponent(shuffled(symbols, i + 1).join(","))}&${q}`);
      let c0 = cpuMs();
      await ask1(0);
      await Bun.sleep(50); // the audit write lands in this request's figure
      const first = cpuMs() - c0;
      c0 = cpuMs();
      for (let i = 1; i <= count; i++) await ask1(i);
      await Bun.sleep(50);
      return { first, rest: (cpuMs() - c0) / count };
    };
    const daily = "lookback=2&metrics=pagerank&include_graph=false";
    const hourly = "interval=1h&lookback=2&metrics=pagerank&include_graph=false";
    for (const [what, symbols, q, history] of [
      ["500 symbols, lookback=2", LONG, daily, "1,300 days"],
      ["500 symbols, lookback=2", SHORT, daily, "40 days"],
      ["10 symbols, 1h from 1m, lookback=2", MLONG, hourly, "60,000 minutes"],
      ["10 symbols, 1h from 1m, lookback=2", MSHORT, hourly, "1,500 minutes"],
    ] as const) {
      const r = await perRequest([...symbols], q, 20);
      const est = await estimateOf([...symbols], q, label === "before");
      console.log(`| ${label} | ${what} | ${history} | ${r.first.toFixed(0)} | ${r.rest.toFixed(1)} | ${est} | |`);
    }
    const before = rssMb();
    for (let i = 0; i < 100; i++) await ask(`symbols=${encodeURIComponent(shuffled(LONG, 1000 + i).join(","))}&${daily}`);
    console.log(`| ${label} | 100 distinct orders | 1,300 days | | | | ${before.toFixed(0)} → ${rssMb().toFixed(0)} |`);
    await server.stop();
  }
}
