/**
 * The engine's contract: what goes in (aligned close series) and what comes out (the
 * `data` payload of docs/api.md § The answer plus diagnostics). Pure data, no I/O.
 */
import type { SectorAgreement } from "./sector-agreement.ts";

export const INTERVALS = ["1m", "5m", "15m", "30m", "1h", "1d", "1w"] as const;
export type Interval = (typeof INTERVALS)[number];

export const METRICS = ["degree_strength", "eigenvector_centrality", "betweenness_centrality", "closeness_centrality", "pagerank"] as const;
export type Metric = (typeof METRICS)[number];

export const GRAPH_METHODS = ["mst", "knn", "threshold", "complete", "tmfg", "pmfg"] as const;
export type GraphMethod = (typeof GRAPH_METHODS)[number];

export const CORR_METHODS = ["pearson", "spearman", "ewma", "kendall", "distance"] as const;
export type CorrMethod = (typeof CORR_METHODS)[number];

export const SHRINKAGES = ["none", "ledoit_wolf"] as const;
export type Shrinkage = (typeof SHRINKAGES)[number];

export const MARKET_MODES = ["keep", "remove"] as const;
export type MarketMode = (typeof MARKET_MODES)[number];

/** Linkage of the hierarchical clustering (docs/engine.md § Hierarchical clustering); none = not computed. */
export const HIERARCHIES = ["none", "single", "average", "complete", "ward"] as const;
export type Hierarchy = (typeof HIERARCHIES)[number];

/** The distance the linkage runs on: unsigned √(2(1 − |ρ|)) (the graphs' d) or signed √(2(1 − ρ)). */
export const HIERARCHY_DISTANCES = ["unsigned", "signed"] as const;
export type HierarchyDistance = (typeof HIERARCHY_DISTANCES)[number];

/** Portfolio weights per as-of (docs/engine.md § Portfolio weights); none = not computed. */
export const WEIGHTS = ["none", "hrp", "equal", "inverse_variance"] as const;
export type Weights = (typeof WEIGHTS)[number];

/** denoise: none, or mp = Marchenko–Pastur eigenvalue clipping (docs/engine.md § Random-matrix filtering). */
export const DENOISES = ["none", "mp"] as const;
export type Denoise = (typeof DENOISES)[number];

/** include_graph: false = summary only, true = the latest graph, "all" = every as-of's edges too. */
export type IncludeGraph = boolean | "all";

/** Every effective engine parameter after defaults (meta.params echoes them with the HTTP layer's `format`). */
export interface ChartParams {
  universe: string | null; // null when `symbols` is given
  symbols: string[] | null;
  interval: Interval;
  lookback: number;
  periods: number;
  step: number;
  asof: string | null; // YYYY-MM-DD or null = latest bar
  /** Date range (YYYY-MM-DD, both or neither): every step-th bar from the first on or after start to the last on or before end. */
  start: string | null;
  end: string | null;
  metrics: Metric[];
  graph_method: GraphMethod;
  knn_k: number;
  corr_threshold: number;
  corr_method: CorrMethod;
  /** EWMA half-life in bars (used only with corr_method=ewma). */
  halflife: number;
  shrinkage: Shrinkage;
  market_mode: MarketMode;
  /** Linkage method; "single" when weights=hrp and no hierarchy was given. */
  hierarchy: Hierarchy;
  hierarchy_distance: HierarchyDistance;
  /** Flat clusters: at most this many (scipy's fcluster maxclust), or null for none. */
  clusters: number | null;
  weights: Weights;
  /** Random-matrix filters, after shrinkage and before the graph: denoise, then detone (0–5 leading components removed). */
  denoise: Denoise;
  detone: number;
  /** Per as-of, the eigenvalues of the matrix entering the filters, λ₊, how many are above it and the absorption ratio. */
  spectrum: boolean;
  /** Per as-of, the matrix the graph was built from (after every filter). */
  include_corr: boolean;
  /** Bootstrap replicates per as-of (1–1000), or null for none; `seed` (0 … 2³²−1) seeds their row draws. */
  bootstrap: number | null;
  seed: number;
  include_graph: IncludeGraph;
  sort: Metric | null;
  /**
   * Not a request parameter: each symbol's name and sector where known (`import-metadata`), added
   * by the chart service; never echoed, nor part of a cache key (a metadata change moves the data
   * version, which is). Answers carry them per stock, and each graph's sector_agreement.
   */
  stock_metadata?: Readonly<Record<string, StockMetadata>>;
}

/** What a stock's answer carries of its metadata. */
export interface StockMetadata {
  name: string | null;
  sector: string | null;
}

/**
 * Aligned input. `labels[k]` is calendar bar k's start as ISO 8601 with the exchange-local
 * offset (e.g. `2025-09-30T00:00:00+05:30`); its first 10 characters are the local date.
 * `closes[i][k]` is symbol i's close at bar k, NaN where the symbol has no bar.
 */
export interface SeriesInput {
  symbols: string[];
  labels: string[];
  closes: Float64Array[];
}

/** One metric value: a number rounded to 6 decimals, or null when undefined. */
export type MetricValue = number | null;

export interface EdgeOut {
  source: string;
  target: string;
  weight: number;
  corr: number;
  /** With bootstrap: the share of replicates whose graph holds this edge. */
  reliability?: number;
}

/** spectrum=true: the eigenvalues (descending) of the matrix entering the filters, rounded; null only if not finite. */
export interface SpectrumOut {
  eigenvalues: (number | null)[];
  lambda_plus: number;
  n_above: number;
  absorption_ratio: number | null;
}

/** include_corr=true: the matrix the graph was built from, rows and columns in `symbols` order (the response's). */
export interface CorrMatrixOut {
  symbols: string[];
  matrix: (number | null)[][];
}

export interface GraphOut {
  /** Absent with include_graph=false. */
  asof_date?: string;
  nodes: number;
  edges: number;
  method: GraphMethod;
  edge_list?: EdgeOut[];
  communities?: Record<string, number>;
  n_communities?: number;
  modularity?: number | null;
  /** Communities against sectors over the labelled nodes (sector-agreement.ts); absent with include_graph=false. */
  sector_agreement?: SectorAgreement;
  /** With bootstrap and communities: the mean adjusted Rand index of the replicates' communities against these. */
  community_stability?: number | null;
  /** With spectrum=true. */
  spectrum?: SpectrumOut;
  /** With include_corr=true. */
  corr_matrix?: CorrMatrixOut;
}

/**
 * Per-stock extras of an as-of: `cluster` (with clusters=k: the flat cluster label, 1-based, not
 * matched across as-ofs) and `weight` (with weights: the portfolio weight, rounded to 6 decimals);
 * null where the symbol is not in that as-of's window.
 */
export interface StockExtras {
  cluster?: number | null;
  weight?: number | null;
}

/** A stock's name and sector, each only where known. */
export interface StockLabels {
  name?: string;
  sector?: string;
}

/** With bootstrap: `<metric>_p05` and `<metric>_p95` per requested metric (null where undefined). */
export type PercentileKey = `${Metric}_p05` | `${Metric}_p95`;
export type Percentiles = Partial<Record<PercentileKey, MetricValue>>;

export type SnapshotStock = { symbol: string; community?: number | null } & StockLabels &
  StockExtras &
  Partial<Record<Metric, MetricValue>> &
  Percentiles;

/**
 * One as-of's hierarchical clustering: scipy's linkage matrix Z with `leaves[i]` the symbol of leaf
 * id i (ids n + r are the clusters merge r creates), the dendrogram's leaf order, and the flat
 * clusters with clusters=k. Empty lists at an as-of without 2 usable symbols.
 */
export interface HierarchyOut {
  asof_date: string;
  method: Exclude<Hierarchy, "none">;
  distance: HierarchyDistance;
  leaves: string[];
  /** [left id, right id, height (6 decimals; null only if not finite), size] per merge, by height. */
  merges: [number, number, number | null, number][];
  leaf_order: string[];
  n_clusters?: number;
  clusters?: Record<string, number>;
}

/** weights' summary; the weights themselves are each stock's (each point's) `weight`. */
export interface WeightsOut {
  method: Exclude<Weights, "none">;
  /** Rolling only: one-way turnover ½Σ|Δw| from the previous as-of, one per asof_dates entry; null first and where either as-of has no weights. */
  turnover?: (number | null)[];
}

export interface SnapshotData {
  type: "snapshot";
  asof_date: string;
  interval: Interval;
  metrics: Metric[];
  stocks: SnapshotStock[];
  graph: GraphOut;
  /** One entry; absent with include_graph=false. */
  graph_stats?: GraphStatsOut[];
  /** With hierarchy (or weights=hrp). */
  hierarchy?: HierarchyOut;
  /** With weights. */
  weights?: WeightsOut;
}

export type RollingPoint = { date: string; community?: number | null } & StockExtras & Partial<Record<Metric, MetricValue>> & Percentiles;

/**
 * Whole-graph statistics of one as-of (see README "How the numbers are computed"): null where
 * undefined (no graph, no edges, or a disconnected graph for the path length).
 */
export interface GraphStatsOut {
  date: string;
  nodes: number;
  edges: number;
  n_communities: number;
  modularity: number | null;
  /** With bootstrap (include_graph true or all). */
  community_stability?: number | null;
  mean_abs_corr: number | null;
  tree_length: number | null;
  avg_shortest_path: number | null;
}

/** One as-of's edges (include_graph=all). */
export interface DatedGraphOut {
  asof_date: string;
  nodes: number;
  edges: number;
  method: GraphMethod;
  edge_list: EdgeOut[];
  sector_agreement: SectorAgreement;
  spectrum?: SpectrumOut;
  corr_matrix?: CorrMatrixOut;
}

export interface RollingStock extends StockLabels {
  symbol: string;
  community?: number | null;
  points: RollingPoint[];
}

export interface RollingData {
  type: "rolling";
  asof_dates: string[];
  interval: Interval;
  metrics: Metric[];
  stocks: RollingStock[];
  latest_graph: GraphOut;
  /** One entry per as-of, oldest first; absent with include_graph=false. */
  graph_stats?: GraphStatsOut[];
  /** Every as-of's edges, oldest first; only with include_graph=all. */
  graphs?: DatedGraphOut[];
  /** The latest as-of's hierarchy, with hierarchy (or weights=hrp). */
  latest_hierarchy?: HierarchyOut;
  /** Every as-of's hierarchy, oldest first; with hierarchy and include_graph=all. */
  hierarchies?: HierarchyOut[];
  /** With weights (per-point weights, turnover here). */
  weights?: WeightsOut;
}

export type ChartData = SnapshotData | RollingData;

/** The engine's part of meta.diagnostics (the market and HTTP layers add the rest). */
export interface EngineDiagnostics {
  n_in_graph: number;
  /** Snapshot: symbols. Rolling: as-of date → symbols, only as-ofs that dropped any. */
  dropped_insufficient_bars: string[] | Record<string, string[]>;
  dropped_zero_variance: string[] | Record<string, string[]>;
  window_bars: number;
  first_asof: string;
  last_asof: string;
  /** Set when eigenvector or pagerank did not converge somewhere (values are null there). */
  not_converged?: string[];
}

export interface ChartResult {
  data: ChartData;
  diagnostics: EngineDiagnostics;
}

/**
 * Why the data cannot serve a request, in the engine's terms; the HTTP layer decides the status
 * of the answer (src/http/http-error.ts). `no-data` and `no-usable-symbols` are about what exists,
 * the rest about what was asked.
 */
export type ChartErrorKind =
  | "no-data"
  | "no-usable-symbols"
  | "interval-unavailable"
  | "insufficient-history"
  | "out-of-range"
  | "too-large"
  | "over-budget"
  | "invalid-parameter"
  | "unknown-universe"
  | "unknown-symbols"
  | "too-few-symbols";

/** A request the data cannot serve; the message says why and what to ask instead. */
export class ChartError extends Error {
  constructor(
    readonly kind: ChartErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "ChartError";
  }
}
