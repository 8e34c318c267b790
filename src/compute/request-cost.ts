/**
 * What a chart request will cost, in milliseconds of one core on the reference machine, estimated
 * from its parameters, the symbol count and the as-of count alone (no series loaded), so it is
 * refused before admission when over the budget (docs/api.md § Request cost).
 *
 * The estimate is a sum of work terms, one per stage of the engine and its output, each the
 * stage's operation count (`costTerms`), times a coefficient fitted to measured compute CPU time
 * over a sweep of the whole parameter space (`npm run bench` → `bench/cost-model.bench.ts`, fit and
 * worst residuals in docs/benchmarks.md). Threshold graphs are priced at their worst case (every
 * pair kept), and PMFG at its (every candidate pair tested for planarity): how many pairs pass the
 * threshold, or reach a planarity test, is known only once the series are loaded.
 */
import type { ChartParams } from "../engine/types.ts";
import type { Format } from "./serialise.ts";

/**
 * distance-correlation.ts's MAX_DISTANCE_BYTES (not imported: that module loads OpenBLAS, and this
 * one runs on the event loop); request-cost.test.ts checks the two agree.
 */
export const DCOR_HELD_BYTES = 64 * 2 ** 20;

/**
 * Above shortest-paths.ts's SORTED_FRONTIER_MAX nodes Dijkstra's frontier is in buckets: measured
 * 0.47–0.58× the heap the `paths` coefficient was fitted on (knn, tmfg, threshold at 300–2,000
 * nodes, side by side; docs/engine.md § Betweenness and closeness), so that term is scaled by it
 * there until the next full fit. request-cost.test.ts checks the bound agrees with the engine's.
 */
export const SORTED_FRONTIER_MAX = 96;
const BUCKETS_OVER_HEAP = 0.55;

/** The default budget: 10 s of one core on the reference machine (docs/benchmarks.md). */
export const DEFAULT_COST_BUDGET = 10_000;

/** Operation counts per stage, in millions (so the fitted coefficients read as ms per million). */
export const COST_TERMS = [
  /** Fixed work per request and per as-of (window members, payload assembly). */
  "request",
  "asof",
  /**
   * Loading the series: the stored bars under the request's windows, read by range and bucketed
   * (n·bars·source bars per bar: 60 for 1h from 1m), whatever history is stored (docs/api.md §
   * Series cache). Priced uncached; a cached series costs less.
   */
  "load",
  /** The returns panel over every bar the request reads (n·bars), and ranking each window for Spearman (n·L·log L). */
  "panel",
  "rank",
  /** Pearson's n²·L products; a rolling plain-Pearson request then updates its sums `step` bars at a time (n²·step). */
  "corr_pearson",
  "corr_sliding",
  "corr_ewma",
  "corr_spearman",
  /**
   * Kendall's τ-b: Knight's sort and merge count per pair (n²·L·log L; its per-series ranking is
   * `rank`). Distance correlation: each series' double-centred distance matrix (n·L²), then the
   * Gram matrix of those L(L+1)/2-vectors (n²·L²/2, BLAS).
   */
  "corr_kendall",
  "corr_kendall_slide",
  "corr_dcor_build",
  "corr_dcor_gram",
  "corr_dcor_blocked",
  /** Ledoit–Wolf shrinkage and market-mode removal: more passes over the window. */
  "corr_shrink",
  "corr_market",
  /** Building the graph from the n² matrix, per method. */
  "graph_complete",
  "graph_threshold",
  "graph_mst",
  "graph_knn",
  "graph_tmfg",
  /**
   * PMFG: candidates in order (n², most refused cheaply), plus the planarity tests that cannot be
   * avoided, up to one O(n + E) test per candidate pair, priced at that worst case (docs/api.md §
   * Request cost): on strongly correlated returns a PMFG runs far under its estimate.
   */
  "graph_pmfg",
  "graph_pmfg_tests",
  /**
   * All-pairs shortest paths (betweenness, closeness, avg_shortest_path): n Dijkstras, each popping
   * n nodes from a frontier (n²·log n as fitted on the heap; scaled above SORTED_FRONTIER_MAX) and
   * relaxing E edges (n·E), measured to dominate in that order; on a tree n² walks. On a complete
   * graph they measured as part of building it (graph_complete).
   */
  "paths",
  "paths_edges",
  "paths_betweenness",
  "paths_tree",
  /**
   * Power iterations over the edges. Eigenvector centrality converges in a few steps on dense
   * graphs; on sparse ones (mst, knn, tmfg) the spectrum is crowded, so it runs its whole budget of
   * literal steps (40,000 / n) and then the Lanczos path (n²).
   */
  "eigen_dense",
  "eigen_sparse",
  "pagerank",
  /** include_graph: Louvain (three orders) over the edges, and the MST of the full matrix for tree_length. */
  "louvain",
  "tree_length",
  /**
   * hierarchy: the distance matrix, scipy's linkage (Prim or the nearest-neighbour chain) and the
   * leaf order, n² each. weights=hrp: the window's sample covariance (n²·L) and the bisection (n²).
   */
  "hierarchy",
  "hrp",
  /**
   * Signal or noise: the eigen-decomposition of denoise, detone and spectrum, n³ per decomposition per
   * as-of (two with both denoise and detone); bootstrap=B, B times the window's pipeline
   * (correlation, filters, graph, metrics, Louvain with communities) per as-of, counted as that
   * pipeline's own estimate in ms (so its coefficient is 1 until fitted).
   */
  "eigen_decomposition",
  "bootstrap",
  /** Serialising values and edges, and the tidy rows of csv/ndjson. */
  "output",
  "tidy",
] as const;
export type CostTerm = (typeof COST_TERMS)[number];

/**
 * Milliseconds of one core per unit of each term, fitted by bench/cost-model.bench.ts on the
 * reference machine (the fit and its worst residuals: docs/benchmarks.md, "Cost model").
 */
export const COST_COEFFICIENTS: Record<CostTerm, number> = {
  request: 0.754,
  asof: 34.7,
  // Fitted by bench/series-load.bench.ts (880-1,060 on a busy host, 13 shapes, 1,500-126,000 rows).
  load: 850,
  panel: 0,
  rank: 15.6,
  corr_pearson: 0.076,
  corr_sliding: 1.61,
  corr_ewma: 0.491,
  corr_spearman: 0.115,
  corr_kendall: 0.7,
  // Fitted on rolling kendall requests (n 60-150, L 60-250, 30 as-ofs), CPU here over this machine's speed.
  corr_kendall_slide: 0.6,
  corr_dcor_build: 2.5,
  corr_dcor_gram: 0.02,
  corr_dcor_blocked: 0.45,
  corr_shrink: 0.556,
  corr_market: 0.118,
  graph_complete: 56.7,
  graph_threshold: 28.5,
  graph_mst: 14.7,
  graph_knn: 8.64,
  graph_tmfg: 30.8,
  // Fitted at 550; the PMFG since measured 1.39-1.58x faster side by side (docs/engine.md § PMFG).
  graph_pmfg: 370,
  // Not fitted: the worst case (graph_pmfg_tests below), per element of a left-right test on pure
  // noise at 150-500 symbols, 0.045-0.078 µs here over this machine's speed (docs/api.md § Request cost).
  graph_pmfg_tests: 30,
  paths: 11.1,
  // Fitted at 0 on mostly sparse graphs, which left dense threshold graphs' relaxations unpriced (3.2-3.7x
  // under); 0.973 in this day's fit, three times that to cover the dense ones, priced at their worst case.
  paths_edges: 3,
  paths_betweenness: 0.184,
  paths_tree: 4.06,
  eigen_dense: 65.3,
  eigen_sparse: 0.656,
  pagerank: 0,
  louvain: 49.9,
  // Fitted at 27.3; Prim's one-pass form since measured 0.5-0.7x of that one side by side.
  tree_length: 16.4,
  hierarchy: 15,
  hrp: 0.7,
  // Not fitted: ~125 µs per 50×50 decomposition (125,000 n³) here, docs/engine.md § Random-matrix filtering.
  eigen_decomposition: 1,
  bootstrap: 1,
  output: 14,
  tidy: 305,
};

/** Edges of one as-of's graph over n nodes: exact for complete, mst and tmfg; an upper bound for knn and threshold. */
export function maxEdges(params: ChartParams, n: number): number {
  const all = (n * (n - 1)) / 2;
  switch (params.graph_method) {
    case "mst":
      return Math.max(0, n - 1);
    case "tmfg":
    case "pmfg":
      return n < 3 ? Math.max(0, n - 1) : 3 * n - 6;
    case "knn":
      return Math.min(all, n * params.knn_k);
    default:
      return all; // complete; threshold at worst keeps every pair
  }
}

/**
 * A symbol's own share of a load, in rows: its cached buckets, typed arrays and assembly. 500
 * symbols' three daily bars load in 4.5-9 ms, 3-6 µs a row where long reads run at ~0.9
 * (bench/series-load.bench.ts).
 */
const LOAD_ROWS_PER_SYMBOL = 8;

/** What a request reads (precheck.ts): calendar bars under its windows, and stored bars per calendar bar (1 unless resampled). */
export interface ReadShape {
  bars: number;
  perBar: number;
}

/**
 * The operation count of each term (millions) for params over n symbols and `asofs` as-of dates,
 * answered in `format`, reading `read` (by default the windows' bars at the requested interval).
 */
export function costTerms(
  params: ChartParams,
  n: number,
  asofs = params.periods,
  format: Format = "json",
  read: ReadShape = { bars: params.lookback + 1 + (asofs - 1) * params.step, perBar: 1 },
): Record<CostTerm, number> {
  const M = 1e6;
  const A = asofs;
  const L = params.lookback;
  const n2 = n * n;
  const E = maxEdges(params, n);
  const log = Math.log2(n + 1);
  const shrink = params.shrinkage !== "none";
  const market = params.market_mode !== "keep";
  const sliding = A > 1 && params.corr_method === "pearson" && !shrink && !market;
  const wants = (m: string) => params.metrics.includes(m as ChartParams["metrics"][number]);
  const graphs = params.include_graph ? A : 0;
  const betweenness = wants("betweenness_centrality");
  const pathsPerAsof = betweenness || wants("closeness_centrality") || params.include_graph ? 1 : 0;
  const tree = params.graph_method === "mst";
  const dense = params.graph_method === "complete" || params.graph_method === "threshold";
  // Values per point: the metrics, and a cluster and a weight where asked.
  const values = params.metrics.length + (params.clusters !== null ? 1 : 0) + (params.weights !== "none" ? 1 : 0);
  const points = A * n * values;
  const graphsOut = params.include_graph === "all" ? A : 1;
  const edgesOut = params.include_graph ? graphsOut * E : 0;
  const mergesOut = params.hierarchy !== "none" ? graphsOut * n : 0;
  const terms = Object.fromEntries(COST_TERMS.map((t) => [t, 0])) as Record<CostTerm, number>;
  terms.request = 1;
  terms.asof = A / 1000;
  terms.load = (n * (read.bars * read.perBar + LOAD_ROWS_PER_SYMBOL)) / M;
  terms.panel = (n * (L + 1 + (A - 1) * params.step)) / M;
  if (params.corr_method === "pearson") {
    terms.corr_pearson = ((sliding ? 1 : A) * n2 * L) / M;
    terms.corr_sliding = sliding ? (n2 * (A - 1) * Math.min(params.step, L)) / M : 0;
  } else if (params.corr_method === "ewma") terms.corr_ewma = (A * n2 * L) / M;
  else if (params.corr_method === "kendall") {
    // Rolling on the returns themselves, the pairs' counts slide bar by bar (SlidingKendall: O(L) a
    // pair per bar moved, a full count past 1.5·log2 L bars); market residuals change every window.
    const slides = A > 1 && params.market_mode === "keep";
    const full = slides ? 1 : A;
    terms.corr_kendall = (full * n2 * L * Math.log2(L + 1)) / M;
    if (slides) terms.corr_kendall_slide = ((A - 1) * n2 * L * Math.min(params.step, 1.5 * Math.log2(L))) / M;
    terms.rank = (A * n * L * Math.log2(L + 1)) / M;
  } else if (params.corr_method === "distance") {
    terms.corr_dcor_build = (A * n * L * L) / M;
    // Past the engine's bound on held vectors the Gram matrix is taken in blocks with scalar loops, ~30x slower per product.
    const blocked = n * ((L * (L + 1)) / 2) * 8 > DCOR_HELD_BYTES;
    terms[blocked ? "corr_dcor_blocked" : "corr_dcor_gram"] = (A * n2 * L * L) / 2 / M;
  } else {
    terms.corr_spearman = (A * n2 * L) / M;
    terms.rank = (A * n * L * Math.log2(L + 1)) / M;
  }
  terms.corr_shrink = shrink ? (A * n2 * L) / M : 0;
  terms.corr_market = market ? (A * n2 * L) / M : 0;
  terms[`graph_${params.graph_method}`] = (A * n2) / M;
  // Priced at its worst case, as threshold graphs are: every candidate pair given a planarity test over
  // the whole graph. How many reach a test depends on the data: tens on strongly correlated returns,
  // most of them on returns with little common structure (pure noise: 63-70% of the pairs).
  if (params.graph_method === "pmfg") terms.graph_pmfg_tests = (A * ((n * (n - 1)) / 2) * (n + E)) / M;
  if (tree) terms.paths_tree = (pathsPerAsof * A * n2) / M;
  else if (params.graph_method !== "complete") {
    terms.paths = ((pathsPerAsof * A * n2 * log) / M) * (n > SORTED_FRONTIER_MAX ? BUCKETS_OVER_HEAP : 1);
    terms.paths_edges = (pathsPerAsof * A * n * E) / M;
    terms.paths_betweenness = betweenness ? (A * n * (E + n)) / M : 0;
  }
  if (wants("eigenvector_centrality")) {
    if (dense) terms.eigen_dense = (A * (E + n)) / M;
    else terms.eigen_sparse = (A * ((40_000 / Math.max(n, 40)) * (E + n) + n2)) / M;
  }
  terms.pagerank = wants("pagerank") ? (A * (E + n)) / M : 0;
  terms.louvain = (graphs * (E + n) * log) / M;
  terms.tree_length = tree ? 0 : (graphs * n2) / M;
  terms.hierarchy = params.hierarchy !== "none" ? (A * n2) / M : 0;
  terms.hrp = params.weights === "hrp" ? (A * n2 * (L + 1)) / M : 0;
  const decompositions =
    (params.spectrum || params.denoise !== "none" || params.detone > 0 ? 1 : 0) + (params.denoise !== "none" && params.detone > 0 ? 1 : 0);
  terms.eigen_decomposition = (A * decompositions * n * n * n) / M;
  if (params.bootstrap !== null) terms.bootstrap = params.bootstrap * A * replicateCost(params, n);
  // Percentiles (two per metric) and reliabilities are values of the answer too.
  const extra = params.bootstrap !== null ? A * n * 2 * params.metrics.length + E : 0;
  terms.output = (points + edgesOut + 4 * mergesOut + extra + (params.include_corr ? graphsOut * n * n : 0)) / M;
  terms.tidy = format === "json" ? 0 : points / M;
  return terms;
}

/** The terms a bootstrap replicate repeats: one window's correlation, filters, graph, metrics and communities. */
const REPLICATE_TERMS = COST_TERMS.filter(
  (t) =>
    t.startsWith("corr_") ||
    t.startsWith("graph_") ||
    t.startsWith("paths") ||
    t.startsWith("eigen") ||
    t === "rank" ||
    t === "pagerank" ||
    t === "louvain",
);

/** Milliseconds of one replicate of one window (no sliding sums: each resample is a fresh window). */
function replicateCost(params: ChartParams, n: number): number {
  const one = costTerms({ ...params, bootstrap: null, spectrum: false }, n, 1, "json");
  let ms = 0;
  for (const t of REPLICATE_TERMS) ms += one[t] * COST_COEFFICIENTS[t];
  return ms;
}

/** Estimated milliseconds of one core (the sum of terms × coefficients), rounded up. */
export function requestCost(params: ChartParams, n: number, asofCount = params.periods, format: Format = "json", read?: ReadShape): number {
  return sumCost(costTerms(params, n, asofCount, format, read), COST_TERMS);
}

/**
 * A result already computed, rendered in a tidy format (a render job, compute-threads.ts): parsing its
 * JSON (priced as writing it) and the tidy rows, with no engine stage.
 */
export function renderCost(params: ChartParams, n: number, asofCount = params.periods, format: Format = "csv"): number {
  return sumCost(costTerms(params, n, asofCount, format), ["request", "output", "tidy"]);
}

function sumCost(terms: Record<CostTerm, number>, which: readonly CostTerm[]): number {
  let ms = 0;
  for (const t of which) ms += terms[t] * COST_COEFFICIENTS[t];
  return Math.ceil(ms);
}
