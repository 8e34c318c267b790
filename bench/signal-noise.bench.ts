/**
 * Signal-or-noise benchmark: `npx bun bench/signal-noise.bench.ts`, a markdown section for docs/benchmarks.md.
 * 1. bootstrap=200 on the NIFTY-50 snapshot (lookback 60, mst, five metrics, communities): target
 *    ≤ 150 ms and ≥ 50× the Python reference (bench/networkx/bench_signal_noise.py), alternating.
 * 2. denoise=mp&spectrum=true on a rolling-30 NIFTY-50 request against the same request without:
 *    target ≤ 20% more, both sides alternating, in 5 fresh processes (filters-share.ts) — the
 *    engine alone, and the whole request through the server's handler (filters-request.ts); then
 *    each filter stage alone (filter-stages.ts).
 * Pinned to one CPU. Options: --rounds N (default 3); --filters-only runs part 2 alone (no Python).
 */
import { join } from "node:path";
import { computeChart } from "../src/engine/chart.ts";
import { loadNifty, niftyAvailable } from "../test/support/nifty.ts";
import { chartParams as params } from "./engine-params.ts";
import { median } from "./median.ts";
import { pinToOneCpu } from "./pin-cpu.ts";
import { filterStages } from "./filter-stages.ts";
import { BLOCKS, filtersShareInProcesses } from "./filters-share.ts";
import { PythonSide, sideBySide, sideBySideRow } from "./python-side.ts";

pinToOneCpu(import.meta.path);
const ASOF = "2024-06-28";
const k = process.argv.indexOf("--rounds");
const ROUNDS = k > 0 ? Number(process.argv[k + 1]) : 3;
const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(0));

if (!niftyAvailable) {
  console.log("## Signal or noise\n\nSkipped: NIFTY-50 data not found (set GRAPH_STATS_NIFTY_DIR).");
  process.exit(0);
}
const nifty = loadNifty();
const FILTERS_ONLY = process.argv.includes("--filters-only");
const a = FILTERS_ONLY ? null : await bootstrapSideBySide();

/** 1. bootstrap=200 against the Python reference, alternating. */
async function bootstrapSideBySide() {
  const boot = params(`asof=${ASOF}&bootstrap=200`);
  for (let r = 0; r < 5; r++) computeChart(nifty, boot);
  const py = new PythonSide(
    [join(import.meta.dir, "networkx/bench_signal_noise.py"), "--asof", ASOF],
    "bench_signal_noise.py failed (needs Debian's python3-networkx python3-sklearn)",
  );
  await py.line();
  const side = await sideBySide(py, () => computeChart(nifty, boot), "bootstrap 200 1", { rounds: ROUNDS, perBlock: 5 });
  py.close();
  return side;
}

// 2. The filters' share of a rolling request, in fresh processes (filters-share.ts).
const PROCESSES = 5;
const runs = filtersShareInProcesses(ASOF, PROCESSES);
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const spread = (xs: number[]) => `${pct(median(xs))} (${pct(Math.min(...xs))}–${pct(Math.max(...xs))})`;
const engineAdded = runs.map((r) => r.engineAdded);
const requestAdded = runs.map((r) => r.request.added);
const base = runs.flatMap((r) => r.plain);
const withFilters = runs.flatMap((r) => r.filtered);
const whole = {
  plain: runs.flatMap((r) => r.request.plain),
  filtered: runs.flatMap((r) => r.request.filtered),
  bytes: runs[0]!.request.bytes,
};
const meets = (xs: number[]) => (median(xs) <= 0.2 ? "yes" : "**no**");
const perAsof = (median(base) * 1000) / 30;
const STAGE_ROUNDS = 21;
const stages = { n: 50, rows: filterStages(nifty, ASOF, STAGE_ROUNDS) };
const bootstrapTable = a
  ? `| case | ours median (min) | reference median (min) | reference / ours | target |
|---|---:|---:|---:|---|
${sideBySideRow("bootstrap=200, NIFTY-50 snapshot, lookback 60, mst, five metrics, communities", a, ms, median(a.ours) <= 150 && median(a.ratios) >= 50 ? "≤ 150 ms, ≥ 50x: yes" : "≤ 150 ms, ≥ 50x: **no**")}

`
  : "";
console.log(`## Signal or noise

${bootstrapTable}| rolling 30, NIFTY-50, mst | the engine alone: median (min) | the whole request, in process, result cache off: median (min) |
|---|---:|---:|
| plain | ${ms(median(base))} (${ms(Math.min(...base))}) ms | ${ms(median(whole.plain))} (${ms(Math.min(...whole.plain))}) ms, ${(whole.bytes.plain / 1024).toFixed(0)} KiB |
| denoise=mp&spectrum=true | ${ms(median(withFilters))} (${ms(Math.min(...withFilters))}) ms | ${ms(median(whole.filtered))} (${ms(Math.min(...whole.filtered))}) ms, ${(whole.bytes.filtered / 1024).toFixed(0)} KiB |
| added: median (range) of ${PROCESSES} processes, each the median of ${BLOCKS} alternating blocks; target ≤ 20% | ${spread(engineAdded)}: ${meets(engineAdded)} | ${spread(requestAdded)}: ${meets(requestAdded)} |

The whole request: the server's handler from the Request to the body's last byte (token check, the meter's
admission and finish, the stored bars read, the computation on a compute thread, the JSON written).

Per as-of, the plain request's engine work is ${perAsof.toFixed(0)} µs (its median ÷ 30: the correlation updated in
O(n²) from the previous window's, the tree, five metrics); the filters add one eigen-decomposition of
the ${stages.n} × ${stages.n} matrix, an n³ step. Each stage alone on the request's 30 matrices (median µs per matrix
of ${STAGE_ROUNDS} rounds taking turns):

| stage | µs per as-of |
|---|---:|
${stages.rows.map((r) => `| ${r.stage} | ${r.us.toFixed(1)} |`).join("\n")}
`);
