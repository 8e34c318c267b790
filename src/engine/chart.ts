/**
 * The engine's entry point: aligned closes + effective parameters → chart payload and
 * diagnostics (README.md § How the numbers are computed; docs/api.md § The answer). Pure: no
 * I/O, no clock.
 *
 * Choices those rules leave open:
 * - Every input symbol appears in `stocks`; one that does not take part at an as-of has
 *   null metrics (and community) there.
 * - Rolling: an as-of where fewer than 2 symbols take part has null metrics for everyone;
 *   only when no as-of has 2 is the request a 404. `sort` orders by the latest point.
 * - Communities (Louvain) and the graph statistics are computed only when `include_graph` is
 *   true or all (every as-of of a rolling request: each point carries its tracked community,
 *   community-tracking.ts), since nothing else shows them.
 * - include_graph=all counts every as-of's edges against MAX_POINTS beside the points (and, with
 *   hierarchy, every as-of's merges, which it returns too).
 * - hierarchy, clusters and weights are per as-of, from the window alone (the tree on the same
 *   correlation as the graph; the weights' covariance from the window's log returns); turnover,
 *   which reads the previous as-of, is computed in the payload after the join.
 */
import { bootstrapWindow } from "./bootstrap.ts";
import { correlationMatrix } from "./correlation.ts";
import { optionCorrelation, usesOptions, usesResiduals } from "./correlation-options.ts";
import { buildGraph } from "./graph.ts";
import { louvain } from "./louvain.ts";
import { CommunityTracker } from "./community-tracking.ts";
import { graphStats } from "./graph-summary.ts";
import { computeMetrics } from "./metrics/index.ts";
import { correlationDistance, flatClusters, leafOrder, linkage } from "./hierarchy.ts";
import { equalWeights, hrpWeights, inverseVarianceWeights, sampleCovariance } from "./hrp.ts";
import { isRolling, resolveAsofs } from "./asofs.ts";
import { MAX_POINTS } from "./limits.ts";
import { decomposes, type Filtered, filterCorrelation, filterCorrelationBatch } from "./random-matrix.ts";
import { TRIDIAGONAL_SLOTS } from "./simd/tridiagonal-kernel.ts";
import { rollingData, snapshotData, type AsofResult } from "./payload.ts";
import { lastFullRebuild, SlidingMoments } from "./rolling-moments.ts";
import { SlidingKendall } from "./kendall.ts";
import { ChartError, type ChartParams, type ChartResult, type EngineDiagnostics, type SeriesInput } from "./types.ts";
import { buildReturnsPanel, windowMembers, windowStart, type ReturnsPanel } from "./window.ts";

/** Throws ChartError for requests the data cannot serve. */
export function computeChart(input: SeriesInput, params: ChartParams): ChartResult {
  const steps = computeChartSteps(input, params);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * computeChart one as-of at a time: it yields after each as-of's graph, so a scheduler can
 * interleave other requests' work between them (src/compute/compute-threads.ts), and returns the result.
 */
export function* computeChartSteps(input: SeriesInput, params: ChartParams): Generator<void, ChartResult> {
  const part = yield* computeChartPartSteps(input, params, 0, 1);
  return joinChart(input.symbols, params, [part]);
}

/**
 * One contiguous share of a request's as-ofs, computed independently of the others: part `index`
 * of `of` covers as-ofs [⌊index·n/of⌋, ⌊(index+1)·n/of⌋). joinChart of every part, in order, is
 * bit for bit computeChart (docs/engine.md § Splitting a rolling request).
 */
export interface ChartPart {
  /** Its as-ofs' results, oldest first; only the last keeps its edges unless include_graph=all. */
  results: AsofResult[];
  /** How many as-ofs the whole request has. */
  asofs: number;
}

/** Like computeChartSteps, for the part `index` of `of` of the request's as-ofs (ChartPart). */
export function* computeChartPartSteps(input: SeriesInput, params: ChartParams, index: number, of: number): Generator<void, ChartPart> {
  checkInput(input);
  const asofs = resolveAsofs(input, params);
  const from = Math.floor((index * asofs.length) / of);
  const to = Math.floor(((index + 1) * asofs.length) / of);
  const panel = buildReturnsPanel(input.closes, asofs[0], asofs[asofs.length - 1], params.lookback);
  const plainPearson = params.corr_method === "pearson" && !usesOptions(params);
  const moments = asofs.length > 1 && plainPearson ? new SlidingMoments(panel) : null;
  if (moments) warmUp(moments, panel, asofs.slice(0, from));
  // Exact integer counts: the same matrix whichever as-of it starts from, so a part needs no warm-up.
  const kendall =
    asofs.length > 1 && params.corr_method === "kendall" && !usesResiduals(params)
      ? new SlidingKendall(panel.returns, panel.lookback)
      : null;
  const rows = new RowBudget(params, asofs.length * input.symbols.length);
  const results: AsofResult[] = [];
  const correlate = (k: number) => correlateAsof(panel, params, asofs[k], moments, kendall);
  // The next as-ofs' windows, correlated (and filtered with this one's) ahead of their turn.
  const ahead: Correlated[] = [];
  for (let k = from; k < to; k++) {
    const window = ahead.shift() ?? correlate(k);
    const n = window.members.nodes.length;
    // Filters that decompose the matrix take up to FILTER_BATCH windows of one size at a time:
    // their QLs run side by side (random-matrix.ts filterCorrelationBatch), with the same answer
    // as one by one. Only a window not yet filtered starts a batch, and then none is ahead.
    if (window.filtered === null && window.unfiltered !== null && n <= FILTER_BATCH_MAX_N && decomposes(params)) {
      const batch = [window];
      while (batch.length < FILTER_BATCH && k + batch.length < to) {
        const next = correlate(k + batch.length);
        ahead.push(next);
        if (next.unfiltered === null || next.members.nodes.length !== n) break;
        batch.push(next);
      }
      if (batch.length > 1) {
        const filtered = filterCorrelationBatch(
          batch.map((b) => b.unfiltered!),
          n,
          panel.lookback,
          params,
          true,
        );
        batch.forEach((b, q) => {
          b.filtered = filtered[q];
        });
      }
    }
    const r = computeAsof(input, panel, params, asofs[k], window);
    // Only the latest graph's edges are returned (all of them with include_graph=all): an earlier
    // as-of's edge arrays go once it is done. They were most of a rolling job's memory (≈125 MB for
    // 500 symbols × 100 as-ofs with knn_k=50).
    if (params.include_graph !== "all" && results.length > 0) hollow(results[results.length - 1]);
    results.push(r);
    // This part's own rows already exceed the bound, so the request's do by this as-of: joinChart
    // reports it, with the request's count, without the rest being computed.
    if (rows.over(r)) break;
    yield;
  }
  return { results, asofs: asofs.length };
}

/** The request's answer from all its parts, in order (community tracking runs across them here). */
export function joinChart(symbols: string[], params: ChartParams, parts: ChartPart[]): ChartResult {
  const results = parts.flatMap((p) => p.results);
  const rows = new RowBudget(params, parts[0].asofs * symbols.length);
  for (const r of results) rows.addEdges(r);
  if (params.include_graph !== "all") for (let k = 0; k < results.length - 1; k++) hollow(results[k]);
  if (!results.some((r) => r.graph)) throw tooFewSymbols(symbols, params, results[results.length - 1]);
  if (params.include_graph) trackCommunities(results, symbols.length);
  const data = isRolling(params) ? rollingData(results, symbols, params) : snapshotData(results[0], symbols, params);
  return { data, diagnostics: diagnostics(symbols, params, results) };
}

/**
 * Brings fresh sliding sums to the state the unsplit run has after the as-ofs `before`: it replays
 * those with a graph (the only ones that move the window) from the last that rebuilds from scratch.
 */
function warmUp(moments: SlidingMoments, panel: ReturnsPanel, before: number[]): void {
  const moved = before.map((t) => ({ t, nodes: windowMembers(panel, t).nodes })).filter((m) => m.nodes.length >= 2);
  const first = lastFullRebuild(
    moved.map((m) => m.t),
    panel.lookback,
  );
  for (const m of moved.slice(first)) moments.moveTo(m.t, m.nodes);
}

/** Windows filtered together at most: as many as the Householder kernel holds at once. */
const FILTER_BATCH = TRIDIAGONAL_SLOTS;
/**
 * Windows of more symbols are filtered one at a time: there the O(n³) reduction, not the O(n²) QL
 * that batching speeds up, is the filters' time, and the windows held ahead would each be n² doubles.
 */
const FILTER_BATCH_MAX_N = 256;

function checkInput(input: SeriesInput): void {
  if (input.closes.length !== input.symbols.length || input.closes.some((c) => c.length !== input.labels.length)) {
    throw new Error("SeriesInput: closes must hold one series per symbol, each as long as labels");
  }
  if (input.symbols.length === 0 || input.labels.length === 0) {
    throw new ChartError("no-data", "no bars exist for the requested symbols at this interval");
  }
}

/** One as-of's members and its window's matrix before the filters (null under 2 members), and the filtered one once known. */
interface Correlated {
  members: ReturnType<typeof windowMembers>;
  series: Float64Array[];
  unfiltered: Float64Array | null;
  filtered: Filtered | null;
}

function correlateAsof(
  panel: ReturnsPanel,
  params: ChartParams,
  t: number,
  moments: SlidingMoments | null,
  kendall: SlidingKendall | null = null,
): Correlated {
  const members = windowMembers(panel, t);
  const series = members.nodes.map((i) => panel.returns[i]);
  if (members.nodes.length < 2) return { members, series, unfiltered: null, filtered: null };
  const unfiltered = moments
    ? moments.correlationAt(t, members.nodes)
    : kendall
      ? kendall.matrixAt(windowStart(panel, t), members.nodes)
      : usesOptions(params)
        ? optionCorrelation(series, windowStart(panel, t), panel.lookback, params)
        : correlationMatrix(series, params.corr_method, windowStart(panel, t), panel.lookback);
  return { members, series, unfiltered, filtered: null };
}

function computeAsof(input: SeriesInput, panel: ReturnsPanel, params: ChartParams, t: number, window: Correlated): AsofResult {
  const { members, series, unfiltered } = window;
  const result: AsofResult = {
    label: input.labels[t],
    ...members,
    graph: null,
    edges: 0,
    values: {},
    notConverged: [],
    communities: null,
    trackedCommunity: null,
    stats: null,
    hierarchy: null,
    clusters: null,
    weights: null,
    spectrum: null,
    corr: null,
    bootstrap: null,
  };
  const n = members.nodes.length;
  if (unfiltered === null) return result;
  // docs/engine.md § Random-matrix filtering: after shrinkage (inside the correlation), before the graph.
  const filtered = window.filtered ?? filterCorrelation(unfiltered, n, panel.lookback, params, true);
  const corr = filtered.corr;
  result.spectrum = filtered.spectrum;
  if (params.include_corr) result.corr = corr;
  const g = buildGraph(corr, n, params.graph_method, { knnK: params.knn_k, threshold: params.corr_threshold });
  const m = computeMetrics(g, params.metrics);
  result.graph = g;
  result.edges = g.src.length;
  result.values = m.values;
  result.notConverged = m.notConverged;
  if (params.include_graph) {
    result.communities = louvain(g);
    const closeness = m.values.closeness_centrality ?? null;
    result.stats = graphStats(g, corr, params.graph_method === "mst", closeness);
  }
  if (params.bootstrap !== null) {
    const answer = { graph: g, community: result.communities?.community ?? null };
    result.bootstrap = bootstrapWindow(series, windowStart(panel, t), panel.lookback, params, answer, params.bootstrap, params.seed);
  }
  treeAndWeights(result, corr, series, windowStart(panel, t), panel.lookback, params);
  return result;
}

/** hierarchy, clusters and weights of one as-of (docs/api.md § Hierarchy, § Portfolio weights). */
function treeAndWeights(
  result: AsofResult,
  corr: Float64Array,
  series: Float64Array[],
  start: number,
  L: number,
  params: ChartParams,
): void {
  const n = series.length;
  let order: Int32Array | null = null;
  if (params.hierarchy !== "none") {
    const link = linkage(correlationDistance(corr, n, params.hierarchy_distance === "signed"), n, params.hierarchy);
    order = leafOrder(link, n);
    result.hierarchy = { merges: link.merges, order };
    if (params.clusters !== null) result.clusters = flatClusters(link, n, params.clusters);
  }
  switch (params.weights) {
    case "none":
      return;
    case "equal":
      result.weights = equalWeights(n);
      return;
    case "inverse_variance": {
      // Only the diagonal is read: each variance as sampleCovariance computes it, without the n² pairs.
      const cov = new Float64Array(n * n);
      for (let i = 0; i < n; i++) cov[i * n + i] = sampleCovariance([series[i]], start, L)[0];
      result.weights = inverseVarianceWeights(cov, n);
      return;
    }
    case "hrp":
      // params.ts makes hierarchy single when weights=hrp comes without one, so the order exists.
      result.weights = hrpWeights(sampleCovariance(series, start, L), n, order!);
  }
}

const NO_INTS = new Int32Array(0);
const NO_FLOATS = new Float64Array(0);

/** Keeps an as-of's node count (its values and communities stay) and drops its edge arrays. */
function hollow(r: AsofResult): void {
  if (!r.graph) return;
  const n = r.graph.n;
  r.graph = {
    n,
    src: NO_INTS,
    dst: NO_INTS,
    w: NO_FLOATS,
    d: NO_FLOATS,
    corr: NO_FLOATS,
    offsets: NO_INTS,
    nbr: NO_INTS,
    nbrW: NO_FLOATS,
    nbrD: NO_FLOATS,
  };
  // The merges are returned for the latest as-of only, like the edges; the clusters stay (points carry them).
  if (r.hierarchy) r.hierarchy = { merges: NO_FLOATS, order: NO_INTS };
  // So are the matrix and the edges' reliabilities; the percentiles and community stability stay (points and graph_stats carry them).
  r.corr = null;
  if (r.bootstrap) r.bootstrap = { ...r.bootstrap, reliability: NO_FLOATS };
}

function trackCommunities(results: AsofResult[], nSymbols: number): void {
  const tracker = new CommunityTracker(nSymbols);
  for (const r of results) {
    if (r.communities) r.trackedCommunity = tracker.track(r.nodes, r.communities.community, r.communities.count);
  }
}

/**
 * include_graph=all: points plus every as-of's edge rows (and merge rows, with hierarchy) may not
 * exceed MAX_POINTS (checked as they are built).
 */
class RowBudget {
  private edges = 0;
  private merges = 0;
  private cells = 0;
  constructor(
    private readonly params: ChartParams,
    private readonly points: number,
  ) {}

  /** Counts the as-of's edges; true once points plus edges exceed MAX_POINTS. */
  over(r: AsofResult): boolean {
    if (this.params.include_graph !== "all" || !r.graph) return false;
    this.edges += r.edges;
    if (this.params.hierarchy !== "none") this.merges += r.graph.n - 1;
    if (this.params.include_corr) this.cells += r.graph.n * r.graph.n;
    return this.points + this.edges + this.merges + this.cells > MAX_POINTS;
  }

  /** Counts the as-of's edges; throws the request's ChartError once points plus edges exceed MAX_POINTS. */
  addEdges(r: AsofResult): void {
    if (this.over(r)) {
      const merges = this.params.hierarchy === "none" ? "" : ` and hierarchy merges (${this.merges})`;
      const cells = this.params.include_corr ? ` and correlation matrix cells (${this.cells})` : "";
      const what = `${merges ? " and hierarchy" : ""}${cells ? " and correlation matrix" : ""}`;
      throw new ChartError(
        "too-large",
        `include_graph=all returns every as-of's edges${what}, and ${this.points} points plus the edges up to ` +
          `${r.label.slice(0, 10)} (${this.edges})${merges}${cells} already exceed ${MAX_POINTS} rows; request fewer periods or symbols, ` +
          `a sparser graph_method (mst, tmfg, pmfg, knn)${cells ? ", include_corr=false" : ""} or include_graph=true`,
      );
    }
  }
}

function tooFewSymbols(symbols: string[], params: ChartParams, r: AsofResult): ChartError {
  const names = (idx: number[]) => idx.map((i) => symbols[i]).join(", ");
  const parts = [
    `only ${r.nodes.length} of ${symbols.length} symbols can be used up to ${r.label.slice(0, 10)} ` +
      `(lookback ${params.lookback} at interval ${params.interval}); at least 2 are needed`,
  ];
  if (r.droppedBars.length > 0) {
    parts.push(`without a close > 0 at each of the ${params.lookback + 1} bars: ${names(r.droppedBars)}`);
  }
  if (r.droppedZeroVar.length > 0) parts.push(`with constant prices: ${names(r.droppedZeroVar)}`);
  if (isRolling(params)) parts.push("this holds at every requested as-of");
  return new ChartError("no-usable-symbols", parts.join("; "));
}

function diagnostics(symbols: string[], params: ChartParams, results: AsofResult[]): EngineDiagnostics {
  const names = (idx: number[]) => idx.map((i) => symbols[i]);
  const latest = results[results.length - 1];
  const notConverged = [...new Set(results.flatMap((r) => r.notConverged))];
  const perAsof = (pick: (r: AsofResult) => number[]) => {
    if (!isRolling(params)) return names(pick(results[0]));
    const out: Record<string, string[]> = {};
    for (const r of results) if (pick(r).length > 0) out[r.label] = names(pick(r));
    return out;
  };
  const d: EngineDiagnostics = {
    n_in_graph: latest.graph ? latest.nodes.length : 0,
    dropped_insufficient_bars: perAsof((r) => r.droppedBars),
    dropped_zero_variance: perAsof((r) => r.droppedZeroVar),
    window_bars: params.lookback + 1,
    first_asof: results[0].label,
    last_asof: latest.label,
  };
  if (notConverged.length > 0) d.not_converged = notConverged;
  return d;
}
