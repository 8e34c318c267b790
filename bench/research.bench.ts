/**
 * Issue 15 targets, `npx bun bench/research.bench.ts`: NIFTY-50 rolling, 30 periods, with
 * per-date communities and graph statistics (target < 30 ms), per graph method and correlation
 * option; TMFG snapshot at 500 synthetic symbols, lookback 252 (target < 1 s). Medians of 15 runs
 * after 3 warm-ups; prints a markdown table.
 */
import { computeChart } from "../src/engine/chart.ts";
import { factorReturns } from "../src/engine/fixtures/random-returns.ts";
import { parseChartParams } from "../src/http/params/params.ts";
import type { SeriesInput } from "../src/engine/types.ts";
import { loadNifty, niftyAvailable } from "../test/support/nifty.ts";
import { median } from "./median.ts";

function time(input: SeriesInput, q: string): number {
  const r = parseChartParams(new URLSearchParams(q), { defaultUniverse: "bench" });
  if (!r.ok) throw new Error(r.errors.join("; "));
  for (let i = 0; i < 3; i++) computeChart(input, r.params);
  const ms: number[] = [];
  for (let i = 0; i < 15; i++) {
    const t = performance.now();
    computeChart(input, r.params);
    ms.push(performance.now() - t);
  }
  return median(ms);
}

function synthetic(n: number, L: number): SeriesInput {
  const labels = Array.from({ length: L + 1 }, (_, k) => `${new Date(Date.UTC(2020, 0, 1) + k * 864e5).toISOString().slice(0, 10)}T00:00:00+05:30`);
  const closes = factorReturns(n, L, 42).map((r) => {
    const c = new Float64Array(L + 1);
    c[0] = 100;
    for (let k = 0; k < L; k++) c[k + 1] = c[k] * Math.exp(r[k]);
    return c;
  });
  return { symbols: Array.from({ length: n }, (_, i) => `S${i}`), labels, closes };
}

const rows: [string, string, number, number][] = [];
if (niftyAvailable) {
  const nifty = loadNifty();
  const base = "asof=2024-06-28&periods=30";
  for (const extra of [
    "include_graph=false",
    "",
    "include_graph=all",
    "graph_method=tmfg",
    "graph_method=complete",
    "corr_method=ewma&halflife=20",
    "shrinkage=ledoit_wolf",
    "market_mode=remove",
  ]) {
    rows.push([`NIFTY-50 rolling 30, ${extra || "defaults (mst, include_graph=true)"}`, "< 30 ms", time(nifty, `${base}&${extra}`), 30]);
  }
}
const big = synthetic(500, 300);
rows.push(["500 symbols snapshot, tmfg, lookback 252", "< 1000 ms", time(big, "graph_method=tmfg&lookback=252"), 1000]);
rows.push(["500 symbols snapshot, tmfg, lookback 252, include_graph=false", "< 1000 ms", time(big, "graph_method=tmfg&lookback=252&include_graph=false"), 1000]);

console.log("| case | target | median |\n|---|---|---|");
for (const [name, target, ms, limit] of rows) console.log(`| ${name} | ${target} | ${ms.toFixed(2)} ms${ms < limit ? "" : " (over)"} |`);
