/**
 * The cost model against measurement (docs/api.md § Request cost), as a benchmark: on a fixed grid of
 * shapes covering every graph method with its knobs, every correlation method, shrinkage, market
 * mode, include_graph, metric sets and formats, pmfg, kendall, distance correlation, hierarchy,
 * clusters and weights, the compute CPU time measured here is within 3× of the estimate either way,
 * at this run's speed (the median measured/estimated). Threshold graphs are priced at their worst
 * case (every pair kept), so there the estimate is only an upper bound: checked one-sided at a high
 * threshold, two-sided at 0 (4× under, as their relaxations are priced for the densest); PMFG at its
 * (every candidate pair tested for planarity): checked one-sided, on factor data and on pure noise.
 * A render job of a computed result is within 3× of its estimate. Exits 1 when a shape leaves its
 * bound. The series load is not measured here (bench/series-load.bench.ts): its term is left out.
 * Run: npx bun bench/cost-grid.bench.ts
 */
import { factorInput } from "../test/support/engine/random-returns.ts";
import { cpuMsOnce, measureCpuMs } from "../test/support/engine/cpu-time.ts";
import { parseChartParams } from "../src/http/params/params.ts";
import { inlineCompute } from "../src/compute/compute-pool.ts";
import { COST_COEFFICIENTS, COST_TERMS, costTerms, renderCost } from "../src/compute/request-cost.ts";
import { renderTidy, type Format } from "../src/compute/serialise.ts";
import type { ChartParams } from "../src/engine/types.ts";

const parsed = (q: string) => {
  const p = parseChartParams(new URLSearchParams(q), { defaultUniverse: "x" });
  if (!p.ok) throw new Error(p.errors.join("; "));
  return p;
};
const params = (q: string) => parsed(q).params;
const format = (q: string): Format => parsed(q).format;
const tidy = (q: string) => {
  const f = format(q);
  return f === "json" ? undefined : f;
};
/** The estimate without the series load, which this bench does not measure. */
const requestCost = (p: ChartParams, n: number, asofs: number | undefined, f: Format) => {
  const terms = costTerms(p, n, asofs, f);
  return Math.ceil(COST_TERMS.reduce((ms, t) => ms + (t === "load" ? 0 : terms[t] * COST_COEFFICIENTS[t]), 0));
};

/**
 * [symbols, query]: 56 shapes of 5–500 ms estimated. Six rolling shapes had twice the as-ofs; halved,
 * their measured/estimated moved by 0.2 at most (warm), mst with include_graph by 0.56, at half the time.
 */
const GRID: [number, string][] = [
  // Signal or noise: the eigen-decomposition and bootstrap terms.
  [50, "graph_method=mst&bootstrap=200"],
  [100, "graph_method=knn&bootstrap=50&periods=3"],
  [50, "graph_method=mst&periods=30&denoise=mp&spectrum=true"],
  [200, "graph_method=tmfg&periods=10&denoise=mp&detone=1"],
  [60, "graph_method=complete"],
  [150, "graph_method=complete"],
  [100, "graph_method=complete&include_graph=true"],
  [60, "graph_method=complete&periods=20&include_graph=all&metrics=degree_strength"],
  [120, "graph_method=complete&periods=15&step=5&metrics=pagerank,degree_strength"],
  [80, "graph_method=complete&corr_method=spearman&periods=10"],
  [80, "graph_method=complete&corr_method=ewma&halflife=30&periods=10"],
  [100, "graph_method=complete&shrinkage=ledoit_wolf&periods=5"],
  [100, "graph_method=complete&market_mode=remove&periods=5"],
  [60, "graph_method=complete&periods=100&format=csv"],
  [60, "graph_method=threshold&corr_threshold=0&periods=10"],
  [100, "graph_method=threshold&corr_threshold=0&include_graph=true"],
  [200, "graph_method=mst"],
  [200, "graph_method=mst&periods=25&include_graph=true"],
  [150, "graph_method=mst&periods=100&step=1&lookback=60"],
  [100, "graph_method=mst&corr_method=spearman&periods=30"],
  [120, "graph_method=mst&periods=30&include_graph=all&format=ndjson"],
  [150, "graph_method=mst&market_mode=remove&periods=20"],
  [150, "graph_method=knn&knn_k=5&periods=20"],
  [150, "graph_method=knn&knn_k=25&periods=10"],
  [100, "graph_method=knn&knn_k=50&periods=10&include_graph=true"],
  [200, "graph_method=knn&knn_k=10&periods=50&include_graph=false&metrics=degree_strength,pagerank"],
  [80, "graph_method=knn&knn_k=10&periods=30&include_graph=all"],
  [120, "graph_method=knn&knn_k=15&corr_method=ewma&halflife=20&periods=20"],
  [120, "graph_method=knn&knn_k=15&shrinkage=ledoit_wolf&periods=10"],
  [100, "graph_method=knn&knn_k=20&periods=100&format=csv&metrics=betweenness_centrality"],
  [150, "graph_method=tmfg"],
  [150, "graph_method=tmfg&periods=20&include_graph=true"],
  [100, "graph_method=tmfg&corr_method=spearman&periods=20"],
  [100, "graph_method=tmfg&periods=30&include_graph=all&metrics=closeness_centrality"],
  [200, "graph_method=tmfg&periods=10&market_mode=remove&metrics=eigenvector_centrality,pagerank"],
  [150, "graph_method=tmfg&periods=50&step=1&lookback=120&format=ndjson"],
  [250, "graph_method=complete&metrics=degree_strength"],
  [250, "graph_method=knn&knn_k=10&metrics=betweenness_centrality,closeness_centrality"],
  [300, "graph_method=mst&periods=10"],
  [40, "graph_method=complete&periods=125&step=1&lookback=60"],
  [40, "graph_method=knn&knn_k=5&periods=125&step=1&include_graph=true"],
  [50, "graph_method=tmfg&periods=200&step=2&corr_method=spearman"],
  [60, "graph_method=mst&periods=200&step=1&lookback=250&metrics=eigenvector_centrality"],
  [200, "graph_method=complete&periods=3&lookback=252&corr_method=spearman"],
  [150, "graph_method=knn&knn_k=30&periods=5&lookback=252&corr_method=ewma"],
  [100, "graph_method=complete&periods=10&lookback=20&include_graph=true&format=csv"],
  [180, "graph_method=threshold&corr_threshold=0&metrics=pagerank"],
  [80, "graph_method=mst&periods=100&step=5&lookback=100&include_graph=true&format=csv"],
  // Issue 26: kendall, distance correlation (BLAS path, and past its held-bytes bound the blocked one), hierarchy, weights.
  [100, "graph_method=mst&corr_method=kendall&periods=5"],
  [60, "graph_method=knn&knn_k=5&corr_method=kendall&periods=10&lookback=250"],
  [150, "graph_method=tmfg&corr_method=kendall&market_mode=remove&periods=3"],
  [100, "graph_method=mst&corr_method=distance&periods=10&lookback=120"],
  [50, "graph_method=knn&knn_k=5&corr_method=distance&periods=5&lookback=250&include_graph=true"],
  // Past the bound with few symbols (the bound is on n·L², the blocked Gram's work is n²·L²): ~300 ms
  // estimated, 84% of it the blocked Gram, where 300 symbols at lookback 250 were ~1.3 s (96%); the
  // measured/estimated ratios of the two agreed within 0.2 here.
  [60, "graph_method=mst&corr_method=distance&lookback=560"],
  [200, "graph_method=mst&hierarchy=average&clusters=8&periods=10"],
  [300, "graph_method=knn&knn_k=5&hierarchy=ward&hierarchy_distance=signed&periods=5&include_graph=all"],
  [150, "graph_method=mst&weights=hrp&periods=30&lookback=120&format=csv"],
  [300, "graph_method=mst&weights=hrp&hierarchy=complete&clusters=20&lookback=250&periods=3"],
  [200, "graph_method=mst&weights=inverse_variance&periods=25&metrics=pagerank"],
  [100, "graph_method=tmfg&weights=equal&periods=25&include_graph=true"],
];

type Row = { n: number; q: string; noise?: boolean; ms: number; est: number };

/**
 * The compute CPU time and the estimate: the least of three runs under 200 ms, of two above. Single
 * runs of 50-200 ms shapes put the grid's speed at 1.17-1.57 alone on a busy host where the least of
 * three gave 1.02-1.08, and it failed one of five runs alone and one of three whole runs (a shape 3.3x
 * over, another at a third of its estimate); the least of three costs ~2 s more CPU.
 */
function measured(n: number, q: string, noise = false): Row {
  const p = params(q);
  const input = factorInput(n, p.lookback + 1 + (p.periods - 1) * p.step, 11, noise);
  const run = () => inlineCompute(input, p, tidy(q));
  let ms = measureCpuMs(run);
  // A first run over 200 ms may be a cold one (a distance shape in a whole run: 301 ms, then 44 ms warm).
  if (ms >= 200) ms = Math.min(ms, cpuMsOnce(run));
  return { n, q, noise, ms, est: requestCost(p, n, undefined, format(q)) };
}

/** `r` measured `times` more, its least time kept: a row one run puts out of bounds, and the median row (`speedOf`). */
function again(r: Row, times: number): void {
  for (let i = 0; i < times; i++) r.ms = Math.min(r.ms, measured(r.n, r.q, r.noise).ms);
}

/**
 * This machine's speed against the reference machine: the median measured/estimated, over least
 * times. The median row is measured twice more, its least time kept, until the median is a row so
 * measured. Taken over single runs the speed came out 10-25% higher, which narrows the bound under
 * the estimate for the fastest shapes (a whole run failed so at a speed of 2.23: a 14 ms shape at
 * 0.74 of its estimate).
 */
function speedOf(rows: Row[]): number {
  const measuredAgain = new Set<Row>();
  for (;;) {
    const sorted = [...rows].sort((a, b) => a.ms / a.est - b.ms / b.est);
    const mid = sorted[Math.floor(sorted.length / 2)]!;
    if (measuredAgain.has(mid)) return mid.ms / mid.est;
    again(mid, 2);
    measuredAgain.add(mid);
  }
}

const failures: string[] = [];
const show = (rows: Row[]) => rows.map((r) => `${(r.ms / r.est).toFixed(2)} ${r.ms.toFixed(1)}/${r.est} n=${r.n} ${r.q}`).join("; ");
const out: string[] = ["## Cost model against the grid", "", "Command: `npx bun bench/cost-grid.bench.ts`.", ""];

// 1. The grid: within 3× either way at this run's speed.
inlineCompute(factorInput(60, 200), params("graph_method=knn&periods=3&include_graph=true")); // warm the JIT
const rows = GRID.map(([n, q]) => measured(n, q));
// This machine's speed against the reference machine the model was fitted on: the median ratio. A
// shared host that runs 1.5x slower today moves every ratio alike, which says nothing about the
// model; a missing or wrong term moves some shapes against the others, which the 3x bound catches.
const speed = speedOf(rows);
if (!(speed > 1 / 3 && speed < 3)) failures.push(`this machine's speed ${speed.toFixed(2)} is not within 3x of the reference`);
// A shared host only ever slows a run down: a shape found slow is measured twice more, its least time kept.
for (const r of rows) if (r.ms / (r.est * speed) > 3) again(r, 2);
// Dense threshold graphs' relaxations are priced at three times their fit, for the 400-symbol one
// below: that puts these 60-180-symbol ones at 0.33-0.58 of the median alone. Held at 4x under.
const under = (r: Row) => (r.q.includes("graph_method=threshold") ? 4 : 3);
const off = rows.filter((r) => r.ms / (r.est * speed) > 3 || (r.est * speed) / r.ms > under(r));
if (off.length) failures.push(`grid shapes out of 3x: ${show(off)}`);
const ratios = rows.map((r) => r.ms / (r.est * speed)).sort((a, b) => a - b);
out.push(
  `**The grid** (${rows.length} shapes, 5–500 ms estimated): this machine runs it at ${speed.toFixed(2)}× the reference machine's time ` +
    `(median measured/estimated); at that speed measured/estimated runs from ${ratios[0]!.toFixed(2)} to ${ratios.at(-1)!.toFixed(2)}, ` +
    `${off.length} shapes outside 3× (threshold graphs 4× under).`,
  "",
);

// 2. Threshold graphs: priced at their worst case, never under-estimated at any threshold.
for (const t of ["0", "0.3", "0.6"]) {
  const r = measured(120, `graph_method=threshold&corr_threshold=${t}&periods=5`);
  if (r.ms / r.est >= 3) again(r, 2);
  if (r.ms / r.est >= 3) failures.push(`threshold ${t} under-estimated: ${show([r])}`);
}
// A dense graph's shortest paths are mostly edge relaxations (n·E): unpriced, this shape ran ~3.5x over.
const dense = () =>
  measured(400, "graph_method=threshold&corr_threshold=0.3&corr_method=distance&lookback=20&metrics=betweenness_centrality");
const d = dense();
for (let retry = 0; retry < 3 && d.ms > 1.75 * d.est * speed; retry++) d.ms = Math.min(d.ms, dense().ms);
if (d.ms / (d.est * speed) >= 1.75) failures.push(`the dense threshold graph at ${(d.ms / (d.est * speed)).toFixed(2)}x its estimate`);
out.push(
  `**Threshold graphs at their worst case**: 400 dense symbols at ${(d.ms / (d.est * speed)).toFixed(2)}× the estimate (bound 1.75).`,
  "",
);

// 3. PMFG: never under-estimated, on factor data or on pure noise (most candidate pairs reach a test).
const pmfg: [number, string, boolean][] = [
  [100, "graph_method=pmfg", false],
  [200, "graph_method=pmfg&metrics=degree_strength,pagerank", false],
  [40, "graph_method=pmfg&periods=30&corr_method=spearman", false],
  [60, "graph_method=pmfg&periods=10&include_graph=true", true],
  [150, "graph_method=pmfg&metrics=degree_strength&lookback=120", true],
  [250, "graph_method=pmfg&metrics=degree_strength&lookback=60&market_mode=remove", true],
];
const pRows = pmfg.map(([n, q, noise]) => measured(n, q, noise));
for (const r of pRows) if (r.ms > r.est * speed) again(r, 2);
const pUnder = pRows.filter((r) => r.ms > r.est * speed);
if (pUnder.length) failures.push(`PMFG under-estimated: ${show(pUnder)}`);
out.push(
  `**PMFG at its worst case**: measured/estimated at most ${Math.max(...pRows.map((r) => r.ms / (r.est * speed))).toFixed(2)} over ${pRows.length} shapes (bound 1).`,
  "",
);

// 4. Another format of a computed result: its render job within 3x of its estimate, far below computing.
const renders: string[] = [];
for (const [n, q] of [
  [60, "graph_method=complete&periods=100"],
  [150, "graph_method=mst&weights=hrp&periods=30&lookback=120"],
  [200, "graph_method=mst&periods=60&include_graph=false&metrics=pagerank,degree_strength"],
] as const) {
  const p = params(q);
  const input = factorInput(n, p.lookback + 1 + (p.periods - 1) * p.step);
  let json = "";
  const whole = Math.min(
    cpuMsOnce(() => {
      json = inlineCompute(input, p).body;
    }),
    cpuMsOnce(() => inlineCompute(input, p)),
  );
  const full = requestCost(p, n, undefined, "json");
  for (const f of ["csv", "ndjson"] as const) {
    renderTidy(json, f); // warm the JIT
    const ms = measureCpuMs(() => renderTidy(json, f));
    const ratio = ms / (renderCost(p, n, undefined, f) * (whole / full));
    renders.push(ratio.toFixed(2));
    if (ratio > 3 || ratio < 1 / 3) failures.push(`render ${f} of n=${n} ${q} at ${ratio.toFixed(2)}x`);
  }
}
out.push(`**Render jobs**: measured/estimated ${renders.join(", ")} (bound 3× either way).`, "");
out.push(failures.length ? `**Out of bounds**: ${failures.join(" | ")}` : "Every shape within its bound.");
console.log(out.join("\n"));
if (failures.length) process.exitCode = 1;
