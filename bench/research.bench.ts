/**
 * Issue 15 benchmark, the Python references side by side: `npx bun bench/research.bench.ts`.
 * Prints a markdown section; `npm run bench` (bench/run.ts) collects it into docs/benchmarks.md.
 *
 * 1. NIFTY-50 rolling, lookback 60, periods 30, with per-date communities and graph statistics
 *    (target < 30 ms), per graph method and correlation option, against the same pipeline in
 *    networkx / pandas / sklearn / the literal TMFG (bench/networkx/bench_research.py).
 * 2. The pieces alone on one 50-symbol window: TMFG, EWMA, Ledoit–Wolf, market removal, graph
 *    statistics, each against its reference.
 * 3. TMFG at 500 synthetic symbols, lookback 252: our snapshot (target < 1 s) and the TMFG step
 *    against the literal reference on the same matrix.
 * Both sides pinned to one CPU and alternating, as bench/engine.bench.ts.
 * Options: --rolling-rounds N (default 2; a Python rolling call takes seconds), --parts-rounds N (default 9).
 */
import { unlinkSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { computeChart } from "../src/engine/chart.ts";
import { correlationMatrix } from "../src/engine/correlation.ts";
import { ewmaCorrelation, ledoitWolfCorrelation, marketResiduals } from "../src/engine/correlation-options.ts";
import { factorReturns } from "../test/support/engine/random-returns.ts";
import { buildGraph } from "../src/engine/graph.ts";
import { graphStats } from "../src/engine/graph-summary.ts";
import { tmfg } from "../src/engine/tmfg.ts";
import type { SeriesInput } from "../src/engine/types.ts";
import { buildReturnsPanel, windowMembers, windowSeries } from "../src/engine/window.ts";
import { loadNifty, niftyAvailable } from "../test/support/nifty.ts";
import { chartParams as params } from "./engine-params.ts";
import { median } from "./median.ts";
import { pinToOneCpu } from "./pin-cpu.ts";
import { rollingStages } from "./research-stages.ts";
import { PythonSide, type SideBySide, sideBySide, sideBySideRow, timeRuns } from "./python-side.ts";

const pinned = pinToOneCpu(import.meta.path);
const ROOT = join(import.meta.dir, "..");
const ASOF = "2024-06-28";
const arg = (name: string, dflt: number) => {
  const k = process.argv.indexOf(name);
  return k > 0 ? Number(process.argv[k + 1]) : dflt;
};
const ROLLING_ROUNDS = arg("--rolling-rounds", 2);
const PARTS_ROUNDS = arg("--parts-rounds", 9);
const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));
const row = (name: string, a: SideBySide, extra: string) => sideBySideRow(name, a, ms, extra);

/** 500 symbols, 300 daily bars of a one-factor model (deterministic). */
function synthetic(n: number, L: number): { input: SeriesInput; returns: Float64Array[] } {
  const labels = Array.from(
    { length: L + 1 },
    (_, k) => `${new Date(Date.UTC(2020, 0, 1) + k * 864e5).toISOString().slice(0, 10)}T00:00:00+05:30`,
  );
  const returns = factorReturns(n, L, 42);
  const closes = returns.map((r) => {
    const c = new Float64Array(L + 1);
    c[0] = 100;
    for (let k = 0; k < L; k++) c[k + 1] = c[k] * Math.exp(r[k]);
    return c;
  });
  return { input: { symbols: Array.from({ length: n }, (_, i) => `S${i}`), labels, closes }, returns };
}

if (!niftyAvailable) {
  console.log("## Research features (issue 15) vs the Python references\n\nSkipped: NIFTY-50 data not found (set GRAPH_STATS_NIFTY_DIR).");
  process.exit(0);
}
const nifty = loadNifty();
const py = new PythonSide(
  [join(ROOT, "bench/networkx/bench_research.py"), "--asof", ASOF],
  "bench_research.py failed (needs Debian's python3-networkx python3-pandas python3-scipy python3-sklearn)",
);
const header = await py.line<Record<string, string>>();

// 1. Rolling, per case: our whole computeChart call vs the Python pipeline over the same 30 as-ofs.
const ROLLING: [string, string, string][] = [
  ["mst", "graph_method=mst", "mst"],
  ["mst, include_graph=all", "graph_method=mst&include_graph=all", "mst"],
  ["knn", "graph_method=knn", "knn"],
  ["threshold", "graph_method=threshold", "threshold"],
  ["complete", "graph_method=complete", "complete"],
  ["tmfg", "graph_method=tmfg", "tmfg"],
  ["mst, corr_method=ewma, halflife=20", "corr_method=ewma&halflife=20", "ewma"],
  ["mst, shrinkage=ledoit_wolf", "shrinkage=ledoit_wolf", "ledoit_wolf"],
  ["mst, market_mode=remove", "market_mode=remove", "market_remove"],
];
const rollingParams = ROLLING.map(([, q]) => params(`asof=${ASOF}&periods=30&${q}`));
// Untimed runs first: the JIT's tiers, not the engine, dominate the first calls.
for (const p of rollingParams) for (let k = 0; k < 10; k++) computeChart(nifty, p);
const rollingRows: string[] = [];
for (const [q, [name, , pyCase]] of ROLLING.entries()) {
  const a = await sideBySide(py, () => computeChart(nifty, rollingParams[q]), `rolling ${pyCase} 30 1`, {
    rounds: ROLLING_ROUNDS,
    blocks: 1,
    perBlock: 10,
  });
  rollingRows.push(row(`rolling 30, ${name}`, a, median(a.ours) < 30 ? "yes" : "**over**"));
}

// Where the heavier rolling cases spend their time, stage by stage.
const STAGE_METHODS = ["mst", "tmfg", "complete"] as const;
const stageCols = STAGE_METHODS.map((m) =>
  rollingStages(
    nifty,
    params(`asof=${ASOF}&periods=30&graph_method=${m}`),
    nifty.labels.findLastIndex((l) => l.slice(0, 10) <= ASOF),
    15,
  ),
);
const stageRows = [
  `| stage, summed over the 30 as-ofs (median ms) | ${STAGE_METHODS.join(" | ")} |`,
  `|---|${STAGE_METHODS.map(() => "---:").join("|")}|`,
  ...stageCols[0].map(([name], r) => `| ${name} | ${stageCols.map((c) => ms(c[r][1])).join(" | ")} |`),
];

// 2. The pieces on the NIFTY window at ASOF (the same 50 symbols and 60 returns Python reads).
const t = nifty.labels.findLastIndex((l) => l.slice(0, 10) <= ASOF);
const panel = buildReturnsPanel(nifty.closes, t, t, 60);
const series = windowSeries(panel, windowMembers(panel, t).nodes, t);
const n = series.length;
const corr = correlationMatrix(series, "pearson", 0, 60);
const gComplete = buildGraph(corr, n, "complete", { knnK: 4, threshold: 0.5 });
const gTmfg = buildGraph(corr, n, "tmfg", { knnK: 4, threshold: 0.5 });
const PARTS: [string, string, () => unknown][] = [
  ["TMFG (graph step), 50 symbols", "tmfg", () => tmfg(corr, n)],
  ["EWMA correlation, halflife 20", "ewma", () => ewmaCorrelation(series, 0, 60, 20)],
  ["Ledoit–Wolf correlation", "ledoit_wolf", () => ledoitWolfCorrelation(series, 0, 60)],
  ["market removal (OLS residuals)", "market_remove", () => marketResiduals(series, 0, 60)],
  ["graph statistics, complete graph", "stats_complete", () => graphStats(gComplete, corr, false, null)],
  ["graph statistics, TMFG graph", "stats_tmfg", () => graphStats(gTmfg, corr, false, null)],
];
for (const [, , fn] of PARTS) timeRuns(fn, 200);
const REFERENCE: Record<string, string> = {
  tmfg: "tmfg_reference.py (literal, O(n³))",
  ewma: `pandas ${header.pandas} ewm(halflife).corr()`,
  ledoit_wolf: `sklearn ${header.sklearn} LedoitWolf`,
  market_remove: `numpy ${header.numpy} lstsq per series`,
  stats_complete: `networkx ${header.networkx}: mean, MST length, average_shortest_path_length`,
  stats_tmfg: `networkx ${header.networkx}, as above`,
};
const partRows: string[] = [];
for (const [name, key, fn] of PARTS) {
  const a = await sideBySide(py, fn, `part ${key} 1`, { rounds: PARTS_ROUNDS, blocks: 3, perBlock: 15 });
  partRows.push(row(name, a, REFERENCE[key]));
}

// 3. TMFG at 500 symbols: the whole snapshot (target < 1 s), and the TMFG step vs the literal
// reference once on the same |ρ| matrix (one Python run takes ~14 s).
const big = synthetic(500, 300);
const bigParams = params("graph_method=tmfg&lookback=252");
const bigQuiet = params("graph_method=tmfg&lookback=252&include_graph=false");
timeRuns(() => computeChart(big.input, bigParams), 3);
const snap500 = timeRuns(() => computeChart(big.input, bigParams), 9);
const snap500Quiet = timeRuns(() => computeChart(big.input, bigQuiet), 9);
const corr500 = correlationMatrix(big.returns, "pearson", 300 - 252, 252);
const absFile = join(tmpdir(), `graph-stats-tmfg500-${process.pid}.f64`);
writeFileSync(absFile, new Uint8Array(Float64Array.from(corr500, Math.abs).buffer));
timeRuns(() => tmfg(corr500, 500), 5);
const ours500 = timeRuns(() => tmfg(corr500, 500), 15);
const theirs500 = await py.times(`tmfg_file ${absFile} 500 1`);
const ours500After = timeRuns(() => tmfg(corr500, 500), 15);
unlinkSync(absFile);
py.close();
const both500 = [...ours500, ...ours500After];

const md = [
  "## Research features (issue 15) vs the Python references",
  "",
  "Reproduce: `npx bun bench/research.bench.ts` (runs `/usr/bin/python3 bench/networkx/bench_research.py` for the Python column;",
  "`--rolling-rounds N`, `--parts-rounds N`).",
  `Machine: ${cpus()[0]?.model ?? "unknown CPU"}, ${cpus().length} threads, load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")} at the end; Bun ${Bun.version};`,
  `Python ${header.python}, networkx ${header.networkx}, pandas ${header.pandas}, scikit-learn ${header.sklearn}, numpy ${header.numpy}.`,
  `Both sides ran pinned to ${pinned === null ? "no CPU (taskset unavailable)" : `CPU ${pinned} (taskset)`} and take turns; each ratio is Python's time over our median`,
  "in the same round, and the table gives the median ratio over rounds (range in brackets). Times: median (min).",
  "",
  `Rolling: NIFTY-50, as-of ${ASOF}, lookback 60, periods 30: our whole computeChart call (window → correlation → graph → five metrics →`,
  "Louvain, tracked communities per point, data.graph_stats → rounded JSON payload). The Python column runs the same pipeline at the",
  "same 30 as-ofs with the fixtures' references: networkx metrics, Louvain (seed 42) and modularity, mean |ρ|, Onnela tree length and",
  "average_shortest_path_length; pandas ewm(halflife=20).corr(), sklearn LedoitWolf, numpy lstsq residuals, the literal TMFG",
  `(label tracking and JSON are not in it). ${ROLLING_ROUNDS} rounds of 10 + 1 + 10 runs (ours, Python, ours).`,
  "",
  "| case | graph-stats | Python reference | speed-up | under 30 ms |",
  "|---|---:|---:|---:|---|",
  ...rollingRows,
  "",
  "Where the rolling time goes (each stage timed alone over the same 30 windows; correlation, the payload and label tracking are the rest).",
  "A TMFG has 3(n−2) = 144 edges against the MST's 49, so its shortest-path stages (betweenness, closeness, statistics) cost more:",
  "",
  ...stageRows,
  "",
  `The pieces alone, on the NIFTY-50 window at ${ASOF} (50 symbols × 60 returns): ${PARTS_ROUNDS} rounds of 3 × (15 of ours, 1 Python).`,
  "",
  "| piece | graph-stats | Python reference | speed-up | reference |",
  "|---|---:|---:|---:|---|",
  ...partRows,
  "",
  "TMFG at 500 synthetic symbols (one-factor model), lookback 252:",
  "",
  "| case | graph-stats | Python reference | speed-up | target |",
  "|---|---:|---:|---:|---|",
  `| snapshot, tmfg, all five metrics, Louvain, graph_stats | ${ms(median(snap500))} (${ms(Math.min(...snap500))}) ms | — | — | < 1 s: ${median(snap500) < 1000 ? "yes" : "**over**"} |`,
  `| snapshot, tmfg, include_graph=false | ${ms(median(snap500Quiet))} (${ms(Math.min(...snap500Quiet))}) ms | — | — | < 1 s: ${median(snap500Quiet) < 1000 ? "yes" : "**over**"} |`,
  `| TMFG step alone vs tmfg_reference.py (one Python run between two blocks of 15 of ours) | ${ms(median(both500))} (${ms(Math.min(...both500))}) ms | ${ms(theirs500[0])} ms | **${(theirs500[0] / median(both500)).toFixed(0)}x** | — |`,
  "",
].join("\n");
console.log(md);
