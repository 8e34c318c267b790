/**
 * Tidy (long) exports of a chart's `data` for format=csv and format=ndjson: one row per
 * (date, symbol, metric) with columns date,symbol,metric,value,community, loadable with one
 * `pandas.read_csv`. Per-date graph statistics are rows of their own with an empty symbol and the
 * statistic's name as metric (community empty). Numbers are written exactly as JSON writes them,
 * so the CSV, the NDJSON and the JSON carry the same values; null becomes an empty cell (CSV) or
 * null (NDJSON). With clusters=k and weights, each (date, symbol) also has a `cluster` row (the
 * label) and a `weight` row, after its metrics; a rolling request's turnover is a row per date with
 * an empty symbol, like the statistics. The hierarchy's merges and leaf order are JSON only
 * (docs/api.md § Hierarchy). Pure: the route decides headers and compression.
 */
import type { ChartData, GraphStatsOut, Metric, MetricValue, StockExtras } from "../engine/types.ts";

export const TIDY_COLUMNS = ["date", "symbol", "metric", "value", "community"] as const;

export interface TidyRow {
  date: string;
  /** "" on graph-statistics rows. */
  symbol: string;
  metric: string;
  value: number | null;
  community: number | null;
}

const GRAPH_STATS = ["nodes", "edges", "n_communities", "modularity", "mean_abs_corr", "tree_length", "avg_shortest_path"] as const;

/**
 * Stock rows in payload order (stock, then date, then metric, then cluster and weight), then
 * graph-statistics rows by date, then turnover rows by date.
 */
export function tidyRows(data: ChartData): TidyRow[] {
  const rows: TidyRow[] = [];
  const push = (
    date: string,
    symbol: string,
    values: Partial<Record<Metric, MetricValue>> & StockExtras,
    community: number | null | undefined,
  ) => {
    const c = community ?? null;
    for (const metric of data.metrics) rows.push({ date, symbol, metric, value: values[metric] ?? null, community: c });
    if (values.cluster !== undefined) rows.push({ date, symbol, metric: "cluster", value: values.cluster, community: c });
    if (values.weight !== undefined) rows.push({ date, symbol, metric: "weight", value: values.weight, community: c });
  };
  if (data.type === "snapshot") {
    for (const s of data.stocks) push(data.asof_date, s.symbol, s, s.community);
  } else {
    for (const s of data.stocks) for (const p of s.points) push(p.date, s.symbol, p, p.community);
  }
  for (const g of data.graph_stats ?? []) rows.push(...statRows(g));
  if (data.type === "rolling" && data.weights?.turnover) {
    data.weights.turnover.forEach((value, k) => {
      rows.push({ date: data.asof_dates[k], symbol: "", metric: "turnover", value, community: null });
    });
  }
  return rows;
}

function statRows(g: GraphStatsOut): TidyRow[] {
  return GRAPH_STATS.map((metric) => ({ date: g.date, symbol: "", metric, value: g[metric], community: null }));
}

/** RFC 4180: a cell with a comma, quote or line break is quoted, quotes doubled. */
function cell(v: string | number | null): string {
  if (v === null) return "";
  const s = typeof v === "number" ? JSON.stringify(v) : v;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(data: ChartData): string {
  const lines = [TIDY_COLUMNS.join(",")];
  for (const r of tidyRows(data)) lines.push(TIDY_COLUMNS.map((c) => cell(r[c])).join(","));
  return `${lines.join("\n")}\n`;
}

export function toNdjson(data: ChartData): string {
  return tidyRows(data)
    .map((r) => `${JSON.stringify(r)}\n`)
    .join("");
}
