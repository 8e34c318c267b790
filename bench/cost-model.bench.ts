/**
 * Calibrates the cost model (src/compute/request-cost.ts): measures the compute CPU time of a
 * sweep over the whole parameter space (symbols, lookback, periods, step, every graph method with
 * its knobs, every correlation method, shrinkage, market mode, hierarchy, clusters, weights,
 * include_graph, metrics, formats) on
 * generated factor data, fits each term's coefficient (non-negative least squares on the relative
 * error), and prints the fit, its worst residuals and how the coefficients in the code fare.
 * The series load's term is fitted on cold loads of stored bars (bench/load-fit.ts).
 * Run: npx bun bench/cost-model.bench.ts [--shapes 160] [--seed 1]   (COST_DEBUG=1 also lists, on stderr, the worst-case-priced
 * shapes measured over their estimate)
 */
import { parseArgs } from "node:util";
import { inlineCompute } from "../src/compute/compute-pool.ts";
import { COST_COEFFICIENTS, COST_TERMS, costTerms, maxEdges, requestCost, type CostTerm } from "../src/compute/request-cost.ts";
import { MAX_POINTS } from "../src/engine/limits.ts";
import type { ChartParams } from "../src/engine/types.ts";
import { factorInput, mulberry32 } from "../test/support/engine/random-returns.ts";
import { chartParams } from "./engine-params.ts";
import { calibrateLoads } from "./load-fit.ts";
import { measureCpuMs } from "../test/support/engine/cpu-time.ts";

const { values } = parseArgs({ options: { shapes: { type: "string", default: "160" }, seed: { type: "string", default: "1" } } });
const rand = mulberry32(Number(values.seed));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

/** One random shape of the parameter space, as a query, with its symbol count. */
function randomShape(): { q: string; n: number } {
  // Large universes weigh double: admission matters most where requests are heavy.
  const n = pick([15, 30, 60, 100, 150, 250, 250, 400, 400, 500, 500]);
  const periods = pick([1, 1, 3, 10, 30, 100]);
  const lookback = pick([20, 60, 120, 252]);
  const step = pick([1, 5, 21]);
  const graph = pick(["complete", "threshold", "mst", "knn", "tmfg", "pmfg"] as const);
  const q = new URLSearchParams({ periods: String(periods), lookback: String(lookback), step: String(step), graph_method: graph });
  if (graph === "knn") q.set("knn_k", String(pick([3, 10, 25, 50])));
  if (graph === "threshold") q.set("corr_threshold", String(pick([0, 0.1, 0.3])));
  const corr = pick(["pearson", "pearson", "ewma", "spearman", "kendall", "distance"]);
  q.set("corr_method", corr);
  if (corr === "pearson" && rand() < 0.25) q.set("shrinkage", "ledoit_wolf");
  if (corr !== "spearman" && rand() < 0.2) q.set("market_mode", "remove");
  if (rand() < 0.25) q.set("hierarchy", pick(["single", "average", "complete", "ward"]));
  if (rand() < 0.2) q.set("weights", pick(["hrp", "equal", "inverse_variance"]));
  if ((q.has("hierarchy") || q.get("weights") === "hrp") && rand() < 0.5) q.set("clusters", String(pick([2, 5, 10])));
  q.set("include_graph", pick(["false", "true", "all"]));
  // Signal or noise: random-matrix filters, the spectrum and the bootstrap (never with complete graphs).
  if (corr !== "distance" && rand() < 0.15) q.set("denoise", "mp");
  if (corr !== "distance" && rand() < 0.1) q.set("detone", String(pick([1, 2])));
  if (rand() < 0.1) q.set("spectrum", "true");
  if (graph !== "complete" && periods <= 3 && rand() < 0.1) q.set("bootstrap", String(pick([5, 20, 50])));
  const metrics = pick([
    null,
    "degree_strength,pagerank",
    "betweenness_centrality",
    "closeness_centrality,eigenvector_centrality",
    "degree_strength",
  ]);
  if (metrics) q.set("metrics", metrics);
  q.set("format", pick(["json", "json", "csv", "ndjson"]));
  return { q: q.toString(), n };
}

function admissible(p: ChartParams, n: number): boolean {
  const points = p.periods * n;
  const edges = (p.include_graph === "all" ? p.periods : p.include_graph ? 1 : 0) * maxEdges(p, n);
  return points + edges <= MAX_POINTS && requestCost(p, n) <= 8000;
}

interface Sample {
  q: string;
  n: number;
  /** Every term is exact: not a threshold graph above 0 (its edge count is only bounded) nor a PMFG (its planarity tests are). */
  exact: boolean;
  terms: Record<CostTerm, number>;
  ms: number;
}

const want = Number(values.shapes);
const samples: Sample[] = [];
const inputs = new Map<string, ReturnType<typeof factorInput>>();
// Warm the JIT on a mid-sized shape of each graph method first.
for (const g of ["complete", "threshold", "mst", "knn", "tmfg", "pmfg"])
  inlineCompute(factorInput(60, 200), chartParams(`graph_method=${g}&periods=3&include_graph=true`));
let tries = 0;
while (samples.length < want && tries++ < want * 20) {
  const { q, n } = randomShape();
  let p: ChartParams;
  try {
    p = chartParams(q);
  } catch {
    continue; // a combination the parameters refuse
  }
  if (!admissible(p, n)) continue;
  const bars = p.lookback + 1 + (p.periods - 1) * p.step;
  const key = `${n}x${bars}`;
  if (!inputs.has(key)) inputs.set(key, factorInput(n, bars));
  const input = inputs.get(key)!;
  let ms: number;
  try {
    ms = measureCpuMs(() => inlineCompute(input, p));
  } catch {
    continue; // refused by the data (e.g. too few usable symbols)
  }
  const bounded = (p.graph_method === "threshold" && p.corr_threshold > 0) || p.graph_method === "pmfg";
  // The series load is not part of what is measured here: bench/series-load.bench.ts fits it.
  samples.push({ q, n, exact: !bounded, terms: { ...costTerms(p, n), load: 0 }, ms });
  if (samples.length % 20 === 0) console.error(`${samples.length} shapes measured`);
}

/**
 * Non-negative least squares on relative error: minimise Σ w_i ((Σ_j c_j x_ij) / y_i − 1)², c ≥ 0
 * (projected coordinate descent). Then reweighted: an under-estimate weighs UNDER_WEIGHT times an
 * over-estimate, since it lets in more work than the budget meant to.
 */
const UNDER_WEIGHT = 3;
function fit(rows: Sample[]): Record<CostTerm, number> {
  let coef = fitWeighted(
    rows,
    rows.map(() => 1),
    COST_COEFFICIENTS,
  );
  for (let round = 0; round < 4; round++) {
    coef = fitWeighted(
      rows,
      rows.map((r) => (r.ms > estimate(r, coef) ? UNDER_WEIGHT : 1)),
      coef,
    );
  }
  return coef;
}

function fitWeighted(rows: Sample[], w: number[], start: Record<CostTerm, number>): Record<CostTerm, number> {
  const k = COST_TERMS.length;
  const X = rows.map((r) => COST_TERMS.map((t) => r.terms[t] / r.ms));
  const G = Array.from({ length: k }, (_, a) => Array.from({ length: k }, (_, b) => X.reduce((s, x, i) => s + w[i]! * x[a]! * x[b]!, 0)));
  const h = Array.from({ length: k }, (_, a) => X.reduce((s, x, i) => s + w[i]! * x[a]!, 0));
  const c = COST_TERMS.map((t) => start[t]);
  for (let it = 0; it < 20000; it++) {
    let moved = 0;
    for (let a = 0; a < k; a++) {
      if (G[a]![a]! === 0) continue;
      let g = -h[a]!;
      for (let b = 0; b < k; b++) g += G[a]![b]! * c[b]!;
      const next = Math.max(0, c[a]! - g / G[a]![a]!);
      moved = Math.max(moved, Math.abs(next - c[a]!));
      c[a] = next;
    }
    if (moved < 1e-9) break;
  }
  return Object.fromEntries(COST_TERMS.map((t, i) => [t, c[i]!])) as Record<CostTerm, number>;
}

/** Below this the measurement is mostly timer and JIT noise: such shapes are neither fitted nor judged (they are far below any budget). */
const MIN_MS = 3;
const measured = samples.length;
samples.splice(0, samples.length, ...samples.filter((s) => s.ms >= MIN_MS));

const estimate = (s: Sample, coef: Record<CostTerm, number>) => COST_TERMS.reduce((sum, t) => sum + s.terms[t] * coef[t], 0);
const fitted = fit(samples.filter((s) => s.exact));

const round = (x: number) => Number(x.toPrecision(3));
// The load term is fitted on series loads, not on these computations (which read no database).
const loads = await calibrateLoads();

/** The median measured/estimated over the exact shapes: this run's speed against the coefficients' machine. */
function speedOf(coef: Record<CostTerm, number>): number {
  const r = samples
    .filter((s) => s.exact)
    .map((s) => s.ms / estimate(s, coef))
    .sort((a, b) => a - b);
  return r[Math.floor(r.length / 2)] ?? 1;
}

/** The code's coefficients are judged at this run's speed, as request-cost.test.ts judges them: a host slower today moves every ratio alike. */
function report(label: string, coef0: Record<CostTerm, number>, scaled: boolean): string[] {
  const speed = scaled ? speedOf(coef0) : 1;
  const coef = Object.fromEntries(COST_TERMS.map((t) => [t, coef0[t] * speed])) as Record<CostTerm, number>;
  const ratios = samples
    .filter((s) => s.exact)
    .map((s) => ({ s, r: s.ms / estimate(s, coef) }))
    .sort((a, b) => a.r - b.r);
  const within = (f: number) => ratios.filter(({ r }) => r <= f && r >= 1 / f).length;
  const bounded = samples.filter((s) => !s.exact).map((s) => s.ms / estimate(s, coef));
  if (process.env.COST_DEBUG)
    for (const s of samples.filter((s) => !s.exact && s.ms > estimate(s, coef)))
      console.error(`${label}: ${(s.ms / estimate(s, coef)).toFixed(2)} ${s.ms.toFixed(1)} ms n=${s.n} ${s.q}`);
  const fmt = ({ s, r }: { s: Sample; r: number }) =>
    `| ${r.toFixed(2)} | ${s.ms.toFixed(1)} | ${estimate(s, coef).toFixed(1)} | ${s.n} | \`${s.q}\` |`;
  return [
    `**${label}**${scaled ? ` (at this run's speed: ${speed.toFixed(2)}× their time, the median measured/estimated)` : ""}: measured/estimated within 1.5× for ${within(1.5)} of ${ratios.length} shapes, within 2× for ${within(2)}, ` +
      `within 3× for ${within(3)}; ${ratios.filter(({ r }) => r <= 1).length} over-estimated. Threshold graphs above 0 and PMFG ` +
      `(priced at their worst case, not fitted): ${bounded.length} shapes, measured/estimated at most ${Math.max(...bounded, 0).toFixed(2)}.`,
    "",
    "| measured/estimated | measured ms | estimated ms | n | query |",
    "|---|---|---|---|---|",
    ...ratios.slice(0, 4).map(fmt),
    "| … | | | | |",
    ...ratios.slice(-4).map(fmt),
  ];
}

console.log(
  [
    "## Cost model",
    "",
    `Command: \`npx bun bench/cost-model.bench.ts --shapes ${want} --seed ${values.seed}\`: ${measured} random shapes of the parameter space ` +
      `(15–500 symbols, 1–100 as-of dates, lookback 20–252, step 1–21, every graph method, correlation method, shrinkage, market mode, ` +
      "include_graph, metric set and format), each measured as the compute thread's CPU time of one run (computeChart and serialising, " +
      "after a warm-up; the minimum of three runs under 200 ms), on generated factor data. The fit is non-negative least squares on " +
      `the relative error, an under-estimate weighing ${UNDER_WEIGHT}× an over-estimate, over the shapes that took at least ${MIN_MS} ms ` +
      `(${samples.length} of ${measured}) and whose work is known exactly (neither a threshold graph above 0 nor a PMFG). Largest under-estimates (ratio > 1) and over-estimates (ratio < 1) first and last.`,
    "",
    ...report("The coefficients in src/compute/request-cost.ts", COST_COEFFICIENTS, true),
    "",
    ...report("This run's fit", fitted, false),
    "",
    "This run's fitted coefficients (ms of one core per unit):",
    "",
    "```ts",
    // PMFG's terms have no exact shape to be fitted on: the code's coefficients stand.
    ...COST_TERMS.map((t) =>
      t.startsWith("graph_pmfg")
        ? `  ${t}: ${COST_COEFFICIENTS[t]}, // not fitted (worst case)`
        : t === "load"
          ? `  ${t}: ${round(loads.fit)}, // cold series loads (bench/load-fit.ts), the code has ${COST_COEFFICIENTS[t]}`
          : `  ${t}: ${round(fitted[t])},`,
    ),
    "```",
  ].join("\n"),
);
