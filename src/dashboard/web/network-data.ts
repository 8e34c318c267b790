/**
 * The chart endpoint's two answers (a snapshot, or a rolling series with its latest graph) turned
 * into one model the network panel draws: the graph, each stock's latest metrics, and, when
 * there is one, each stock's series.
 */
import { type Band, bandOf, bandsOf, type DatedSpectrum, type Spectrum, spectraOf } from "./signal-data.ts";

export interface Edge {
  source: string;
  target: string;
  weight: number;
  corr: number;
  /** With bootstrap: the share of resamples whose graph holds the edge (docs/api.md § Signal or noise). */
  reliability?: number;
}

export interface GraphData {
  asof_date?: string;
  nodes: number;
  edges: number;
  method: string;
  edge_list?: Edge[];
  communities?: Record<string, number>;
  n_communities?: number;
  modularity?: number | null;
  /** The communities against the stocks' sectors (docs/api.md § Sectors). */
  sector_agreement?: { ari: number | null; nmi: number | null; labelled: number } | null;
  /** With bootstrap and communities: the mean adjusted Rand index of the resamples' partitions against this one. */
  community_stability?: number | null;
  spectrum?: Spectrum;
}

type Metrics = Record<string, number | null>;

/** One as-of's hierarchical clustering (docs/api.md § Hierarchy): scipy's linkage matrix Z. */
export interface HierarchyData {
  asof_date: string;
  method: string;
  distance: string;
  leaves: string[];
  /** [left id, right id, height, size]: ids < n are leaves[id], id n + r is the cluster merge r makes. */
  merges: [number, number, number | null, number][];
  leaf_order: string[];
  n_clusters?: number;
  clusters?: Record<string, number>;
}

export interface WeightsData {
  method: string;
  turnover?: (number | null)[];
}

/** The portfolio weights of an answer: one column per as-of (one for a snapshot), one row per symbol. */
export interface WeightsModel {
  method: string;
  dates: string[];
  bySymbol: Record<string, (number | null)[]>;
  turnover: (number | null)[] | null;
}

export interface SnapshotData {
  type: "snapshot";
  asof_date: string;
  metrics: string[];
  stocks: ({ symbol: string; community?: number; sector?: string; name?: string } & Record<string, unknown>)[];
  graph: GraphData;
  hierarchy?: HierarchyData;
  weights?: WeightsData;
}

export interface RollingData {
  type: "rolling";
  asof_dates: string[];
  metrics: string[];
  stocks: {
    symbol: string;
    community?: number;
    sector?: string;
    name?: string;
    points: ({ date: string; weight?: number | null } & Metrics)[];
  }[];
  latest_graph: GraphData;
  /** include_graph=all: every as-of's graph, oldest first. */
  graphs?: GraphData[];
  latest_hierarchy?: HierarchyData;
  weights?: WeightsData;
}

export type ChartData = SnapshotData | RollingData;

export interface StockModel {
  symbol: string;
  community: number | null;
  /** From the stock metadata, where known. */
  sector?: string | null;
  name?: string | null;
  /** The metrics at the latest as-of. */
  values: Metrics;
  /** With bootstrap: their 5th and 95th percentiles there. */
  band?: Band;
}

export interface NetworkModel {
  asof: string;
  metrics: string[];
  graph: GraphData;
  stocks: StockModel[];
  rolling: { dates: string[]; series: Record<string, Metrics[]>; bands?: Record<string, Band[]> | null } | null;
  /** The spectra the answer carries, one per as-of that has one, oldest first (signal-data.ts). */
  spectra?: DatedSpectrum[];
  /** The (latest) hierarchy, when the answer has one. */
  hierarchy?: HierarchyData | null;
  /** The portfolio weights, when the answer has them. */
  weights?: WeightsModel | null;
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

function pickMetrics(row: Record<string, unknown>, metrics: string[]): Metrics {
  const out: Metrics = {};
  for (const m of metrics) out[m] = typeof row[m] === "number" ? (row[m] as number) : null;
  return out;
}

function communityOf(graph: GraphData, symbol: string, given: number | undefined): number | null {
  return given ?? graph.communities?.[symbol] ?? null;
}

/** The model of one answer; a rolling answer draws its latest graph and keeps the series. */
export function toModel(data: ChartData): NetworkModel {
  if (data.type === "snapshot") {
    return {
      asof: data.asof_date,
      metrics: data.metrics,
      graph: data.graph,
      stocks: data.stocks.map((s) => ({
        symbol: s.symbol,
        community: communityOf(data.graph, s.symbol, s.community),
        sector: s.sector ?? null,
        name: s.name ?? null,
        values: pickMetrics(s, data.metrics),
        band: bandOf(s, data.metrics) ?? undefined,
      })),
      rolling: null,
      spectra: spectraOf(data),
      hierarchy: data.hierarchy ?? null,
      weights: data.weights
        ? {
            method: data.weights.method,
            dates: [data.asof_date],
            bySymbol: Object.fromEntries(data.stocks.map((s) => [s.symbol, [num(s.weight)]])),
            turnover: null,
          }
        : null,
    };
  }
  const series: Record<string, Metrics[]> = {};
  for (const s of data.stocks) series[s.symbol] = s.points.map((p) => pickMetrics(p, data.metrics));
  return {
    asof: data.asof_dates[data.asof_dates.length - 1] ?? data.latest_graph.asof_date ?? "",
    metrics: data.metrics,
    graph: data.latest_graph,
    stocks: data.stocks.map((s) => ({
      symbol: s.symbol,
      community: communityOf(data.latest_graph, s.symbol, s.community),
      sector: s.sector ?? null,
      name: s.name ?? null,
      values: pickMetrics(s.points[s.points.length - 1] ?? {}, data.metrics),
      band: bandOf(s.points[s.points.length - 1] ?? {}, data.metrics) ?? undefined,
    })),
    rolling: { dates: data.asof_dates, series, bands: bandsOf(data) },
    spectra: spectraOf(data),
    hierarchy: data.latest_hierarchy ?? null,
    weights: data.weights
      ? {
          method: data.weights.method,
          dates: data.asof_dates,
          bySymbol: Object.fromEntries(
            data.stocks.map((s) => {
              const byDate = new Map(s.points.map((p) => [p.date, num(p.weight)]));
              // Points carry their as-of's date; a stock with one point per as-of is also matched by position.
              const aligned = s.points.length === data.asof_dates.length;
              return [s.symbol, data.asof_dates.map((d, i) => (byDate.has(d) ? byDate.get(d)! : aligned ? num(s.points[i].weight) : null))];
            }),
          ),
          turnover: data.weights.turnover ?? null,
        }
      : null,
  };
}

/** The demo: the snapshot's graph and figures with the rolling sample's series. */
export function mergeDemo(snapshot: SnapshotData, rolling: RollingData | null): NetworkModel {
  const model = toModel(snapshot);
  return rolling ? { ...model, rolling: toModel(rolling).rolling } : model;
}

/** The `n` symbols with the highest value of `metric` (nulls last, ties in response order). */
export function topSymbols(model: NetworkModel, metric: string, n: number): string[] {
  return model.stocks
    .map((s, i) => ({ s, i, v: s.values[metric] }))
    .sort((a, b) => (b.v ?? -Infinity) - (a.v ?? -Infinity) || a.i - b.i)
    .slice(0, n)
    .map((x) => x.s.symbol);
}
