/**
 * Turns per-as-of results into the `data` payloads of docs/api.md § The answer (snapshot and rolling),
 * with rounding and sorting. Dates in the payload are the as-of bars' full local ISO 8601
 * labels (e.g. `2025-09-30T00:00:00+05:30`), so intraday as-ofs stay distinct.
 */
import type { RawBootstrap } from "./bootstrap.ts";
import type { Graph } from "./graph.ts";
import type { RawGraphStats } from "./graph-summary.ts";
import { turnoverAligned } from "./hrp.ts";
import type { RawSpectrum } from "./random-matrix.ts";
import { round6 } from "./round.ts";
import type {
  ChartParams,
  CorrMatrixOut,
  DatedGraphOut,
  EdgeOut,
  GraphOut,
  GraphStatsOut,
  HierarchyOut,
  Metric,
  MetricValue,
  Percentiles,
  RollingData,
  RollingStock,
  SnapshotData,
  SnapshotStock,
  SpectrumOut,
  StockExtras,
  StockLabels,
  WeightsOut,
} from "./types.ts";
import { type SectorAgreement, sectorAgreement } from "./sector-agreement.ts";

/** Everything computed for one as-of bar. `graph` is null when fewer than 2 symbols take part. */
export interface AsofResult {
  label: string;
  nodes: number[];
  droppedBars: number[];
  droppedZeroVar: number[];
  graph: Graph | null;
  /** The graph's edge count (kept when a rolling request lets go of an earlier as-of's edges). */
  edges: number;
  values: Partial<Record<Metric, Float64Array>>;
  notConverged: Metric[];
  communities: { community: Int32Array; count: number; modularity: number } | null;
  /** Labels kept across as-ofs (community-tracking.ts), per node; rolling requests only. */
  trackedCommunity: Int32Array | null;
  stats: RawGraphStats | null;
  /** With hierarchy: scipy's linkage matrix ((n−1)×4, leaves = node positions) and leaf order; emptied for all but the latest as-of unless include_graph=all. */
  hierarchy: { merges: Float64Array; order: Int32Array } | null;
  /** With clusters: fcluster labels (1-based) per node. */
  clusters: Int32Array | null;
  /** With weights: per node, summing to 1. */
  weights: Float64Array | null;
  /** With spectrum=true: of the matrix entering denoise/detone. */
  spectrum: RawSpectrum | null;
  /** With include_corr=true: the matrix the graph was built from (n×n over nodes); emptied like the edges. */
  corr: Float64Array | null;
  /** With bootstrap: reliability per edge (emptied like the edges), percentiles per node, community stability. */
  bootstrap: RawBootstrap | null;
}

/** Input indices of the symbols in the order the response lists its stocks. */
function responseOrder(stocks: { symbol: string }[], symbols: string[]): number[] {
  const index = new Map(symbols.map((s, i) => [s, i]));
  return stocks.map((s) => index.get(s.symbol)!);
}

/** Position of each input symbol among the as-of's nodes, -1 when absent. */
function positions(r: AsofResult, nSymbols: number): Int32Array {
  const pos = new Int32Array(nSymbols).fill(-1);
  for (let p = 0; p < r.nodes.length; p++) pos[r.nodes[p]!] = p;
  return pos;
}

function metricValue(r: AsofResult, m: Metric, p: number): MetricValue {
  if (p < 0 || !r.graph) return null;
  const v = r.values[m];
  return v ? round6(v[p]) : null;
}

/**
 * `graph` / `latest_graph`; only nodes, edges and method (and the spectrum) when the graph is not
 * requested. `order` lists input indices in response order, for the correlation matrix.
 */
export function graphOut(r: AsofResult, symbols: string[], params: ChartParams, order: number[]): GraphOut {
  const g = r.graph;
  const summary: GraphOut = { nodes: g ? g.n : 0, edges: r.edges, method: params.graph_method };
  // docs/api.md § The answer: include_graph=false keeps only nodes, edges and method.
  if (!params.include_graph) {
    if (params.spectrum) summary.spectrum = spectrumOut(r);
    return summary;
  }
  const out: GraphOut = { asof_date: r.label, ...summary };
  const name = (p: number) => symbols[r.nodes[p]];
  out.edge_list = [];
  out.communities = {};
  out.n_communities = 0;
  out.modularity = null;
  out.sector_agreement = agreementOf(r, symbols, params);
  if (!g) return out;
  out.edge_list = edgeList(r, symbols);
  if (r.communities) {
    for (let p = 0; p < g.n; p++) out.communities[name(p)] = r.communities.community[p];
    out.n_communities = r.communities.count;
    out.modularity = round6(r.communities.modularity);
  }
  addMatrices(out, r, symbols, params, order);
  return out;
}

/** The as-of's communities against its nodes' sectors (sector-agreement.ts); nothing labelled without a graph or communities. */
function agreementOf(r: AsofResult, symbols: string[], params: ChartParams): SectorAgreement {
  if (!r.graph || !r.communities) return { ari: null, nmi: null, labelled: 0 };
  const meta = params.stock_metadata;
  const sectors = r.nodes.map((i) => meta?.[symbols[i]]?.sector ?? null);
  return sectorAgreement(r.communities.community, sectors);
}

/** The stock's name and sector where known, for its answer. */
function labelsOf(symbol: string, params: ChartParams): StockLabels {
  const m = params.stock_metadata?.[symbol];
  if (!m) return {};
  const out: StockLabels = {};
  if (m.name !== null) out.name = m.name;
  if (m.sector !== null) out.sector = m.sector;
  return out;
}

/** community_stability (beside modularity), spectrum and corr_matrix, where asked. */
function addMatrices(out: GraphOut | DatedGraphOut, r: AsofResult, symbols: string[], params: ChartParams, order: number[]): void {
  if (params.bootstrap !== null && "modularity" in out) out.community_stability = stabilityOf(r);
  if (params.spectrum) out.spectrum = spectrumOut(r);
  if (params.include_corr) out.corr_matrix = corrMatrixOut(r, symbols, order);
}

function stabilityOf(r: AsofResult): number | null {
  const s = r.bootstrap?.communityStability;
  return r.communities && s !== undefined && s !== null ? round6(s) : null;
}

/** The as-of's spectrum; empty (λ₊ and the ratio 0 and null) without 2 usable symbols. */
function spectrumOut(r: AsofResult): SpectrumOut {
  const s = r.spectrum;
  if (!s) return { eigenvalues: [], lambda_plus: 0, n_above: 0, absorption_ratio: null };
  return {
    eigenvalues: Array.from(s.eigenvalues, round6),
    lambda_plus: round6(s.lambdaPlus)!,
    n_above: s.nAbove,
    absorption_ratio: round6(s.absorptionRatio),
  };
}

/** The matrix over the as-of's symbols, in response order. */
function corrMatrixOut(r: AsofResult, symbols: string[], order: number[]): CorrMatrixOut {
  const c = r.corr;
  if (!c || !r.graph) return { symbols: [], matrix: [] };
  const n = r.nodes.length;
  const pos = positions(r, symbols.length);
  const present = order.map((i) => pos[i]).filter((p) => p >= 0);
  return {
    symbols: present.map((p) => symbols[r.nodes[p]]),
    matrix: present.map((p) => present.map((q) => round6(c[p * n + q]))),
  };
}

function edgeList(r: AsofResult, symbols: string[]): EdgeOut[] {
  const g = r.graph;
  const out: EdgeOut[] = [];
  if (!g) return out;
  const name = (p: number) => symbols[r.nodes[p]];
  const reliability = r.bootstrap?.reliability;
  for (let e = 0; e < g.src.length; e++) {
    const edge: EdgeOut = { source: name(g.src[e]), target: name(g.dst[e]), weight: round6(g.w[e])!, corr: round6(g.corr[e])! };
    if (reliability) edge.reliability = round6(reliability[e])!;
    out.push(edge);
  }
  return out;
}

function communityOf(r: AsofResult, p: number): number | null {
  return p >= 0 && r.communities ? r.communities.community[p] : null;
}

function trackedOf(r: AsofResult, p: number): number | null {
  return p >= 0 && r.trackedCommunity ? r.trackedCommunity[p] : null;
}

/** One graph_stats entry; nulls (and zero counts) at an as-of without a graph. */
export function statsOut(r: AsofResult, params: ChartParams): GraphStatsOut {
  const g = r.graph;
  const c = r.communities;
  const s = r.stats;
  const num = (x: number | null | undefined) => (x === null || x === undefined ? null : round6(x));
  return {
    date: r.label,
    nodes: g ? g.n : 0,
    edges: r.edges,
    n_communities: c ? c.count : 0,
    modularity: c ? round6(c.modularity) : null,
    ...(params.bootstrap !== null ? { community_stability: stabilityOf(r) } : {}),
    mean_abs_corr: num(s?.meanAbsCorr),
    tree_length: num(s?.treeLength),
    avg_shortest_path: num(s?.avgShortestPath),
  };
}

function datedGraph(r: AsofResult, symbols: string[], params: ChartParams, order: number[]): DatedGraphOut {
  const g = r.graph;
  const out: DatedGraphOut = {
    asof_date: r.label,
    nodes: g ? g.n : 0,
    edges: r.edges,
    method: params.graph_method,
    edge_list: edgeList(r, symbols),
    sector_agreement: agreementOf(r, symbols, params),
  };
  addMatrices(out, r, symbols, params, order);
  return out;
}

/** Stable sort, descending by `key`, nulls last. */
export function sortByMetric<T>(items: T[], key: (t: T) => MetricValue): T[] {
  return items
    .map((item, idx) => ({ item, idx, v: key(item) }))
    .sort((a, b) => {
      if (a.v === null || b.v === null) return a.v === null ? (b.v === null ? a.idx - b.idx : 1) : -1;
      return b.v - a.v || a.idx - b.idx;
    })
    .map((x) => x.item);
}

export function snapshotData(r: AsofResult, symbols: string[], params: ChartParams): SnapshotData {
  const pos = positions(r, symbols.length);
  let stocks: SnapshotStock[] = symbols.map((symbol, i) => {
    const s: SnapshotStock = { symbol, ...labelsOf(symbol, params) };
    for (const m of params.metrics) s[m] = metricValue(r, m, pos[i]);
    if (params.include_graph) s.community = communityOf(r, pos[i]);
    addExtras(s, r, pos[i], params);
    return s;
  });
  const sort = params.sort;
  if (sort) stocks = sortByMetric(stocks, (s) => s[sort] ?? null);
  const out: SnapshotData = {
    type: "snapshot",
    asof_date: r.label,
    interval: params.interval,
    metrics: params.metrics,
    stocks,
    graph: graphOut(r, symbols, params, responseOrder(stocks, symbols)),
  };
  if (params.include_graph) out.graph_stats = [statsOut(r, params)];
  if (params.hierarchy !== "none") out.hierarchy = hierarchyOut(r, symbols, params);
  if (params.weights !== "none") out.weights = { method: params.weights };
  return out;
}

/**
 * Rolling payload; `sort` orders by the latest point. A stock's `community` is the latest
 * graph's own id (as in latest_graph.communities); each point's `community` is the label tracked
 * across as-ofs (community-tracking.ts), so the two may differ on the latest date.
 */
export function rollingData(results: AsofResult[], symbols: string[], params: ChartParams): RollingData {
  const latest = results[results.length - 1];
  const pos = results.map((r) => positions(r, symbols.length));
  let stocks: RollingStock[] = symbols.map((symbol, i) => {
    const points = results.map((r, q) => {
      const point: RollingStock["points"][number] = { date: r.label };
      for (const m of params.metrics) point[m] = metricValue(r, m, pos[q][i]);
      if (params.include_graph) point.community = trackedOf(r, pos[q][i]);
      addExtras(point, r, pos[q][i], params);
      return point;
    });
    if (!params.include_graph) return { symbol, ...labelsOf(symbol, params), points };
    return { symbol, ...labelsOf(symbol, params), community: communityOf(latest, pos[pos.length - 1][i]), points };
  });
  const sort = params.sort;
  if (sort) stocks = sortByMetric(stocks, (s) => s.points[s.points.length - 1][sort] ?? null);
  const order = responseOrder(stocks, symbols);
  const out: RollingData = {
    type: "rolling",
    asof_dates: results.map((r) => r.label),
    interval: params.interval,
    metrics: params.metrics,
    stocks,
    latest_graph: graphOut(latest, symbols, params, order),
  };
  if (params.include_graph) out.graph_stats = results.map((r) => statsOut(r, params));
  if (params.include_graph === "all") out.graphs = results.map((r) => datedGraph(r, symbols, params, order));
  if (params.hierarchy !== "none") {
    out.latest_hierarchy = hierarchyOut(latest, symbols, params);
    if (params.include_graph === "all") out.hierarchies = results.map((r) => hierarchyOut(r, symbols, params));
  }
  if (params.weights !== "none") out.weights = rollingWeights(results, params);
  return out;
}

/** A stock's (a point's) cluster and weight at an as-of, where requested; null when the symbol is not in the window. */
function addExtras(s: StockExtras & Percentiles, r: AsofResult, p: number, params: ChartParams): void {
  if (params.clusters !== null) s.cluster = p >= 0 && r.clusters ? r.clusters[p] : null;
  if (params.weights !== "none") s.weight = p >= 0 && r.weights ? round6(r.weights[p]) : null;
  if (params.bootstrap === null) return;
  const b = p >= 0 && r.graph ? r.bootstrap : null;
  for (const m of params.metrics) {
    s[`${m}_p05`] = b ? round6(b.p05[m]![p]) : null;
    s[`${m}_p95`] = b ? round6(b.p95[m]![p]) : null;
  }
}

/** data.hierarchy / latest_hierarchy / hierarchies[k]: merges as scipy's Z over the leaves (the as-of's symbols). */
export function hierarchyOut(r: AsofResult, symbols: string[], params: ChartParams): HierarchyOut {
  const leaves = r.hierarchy ? r.nodes.map((i) => symbols[i]) : [];
  const out: HierarchyOut = {
    asof_date: r.label,
    method: params.hierarchy as HierarchyOut["method"],
    distance: params.hierarchy_distance,
    leaves,
    merges: [],
    leaf_order: [],
  };
  const h = r.hierarchy;
  if (h) {
    const Z = h.merges;
    for (let q = 0; q + 3 < Z.length; q += 4) out.merges.push([Z[q], Z[q + 1], round6(Z[q + 2]), Z[q + 3]]);
    out.leaf_order = Array.from(h.order, (p) => leaves[p]);
  }
  if (params.clusters !== null) {
    out.n_clusters = 0;
    out.clusters = {};
    if (r.clusters) {
      for (let p = 0; p < r.clusters.length; p++) {
        out.clusters[leaves[p]] = r.clusters[p];
        out.n_clusters = Math.max(out.n_clusters, r.clusters[p]);
      }
    }
  }
  return out;
}

/** weights' method and, per as-of, the one-way turnover from the previous as-of (null first, and next to an as-of without weights). */
function rollingWeights(results: AsofResult[], params: ChartParams): WeightsOut {
  const turnover = results.map((r, k) => {
    const prev = k > 0 ? results[k - 1] : null;
    if (!prev?.weights || !r.weights) return null;
    return round6(turnoverAligned(prev.nodes, prev.weights, r.nodes, r.weights));
  });
  return { method: params.weights as WeightsOut["method"], turnover };
}
