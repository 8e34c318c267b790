/**
 * Tidy (long) exports of a chart's `data` for format=csv and format=ndjson: one row per
 * (date, symbol, metric) with columns date,symbol,metric,value,community, loadable with one
 * `pandas.read_csv`. Per-date graph statistics are rows of their own with an empty symbol and the
 * statistic's name as metric (community empty). Numbers are written exactly as JSON writes them,
 * so the CSV, the NDJSON and the JSON carry the same values; null becomes an empty cell (CSV) or
 * null (NDJSON). Pure: the route decides headers and compression.
 */
import type { ChartData, GraphStatsOut, Metric, MetricValue } from "../engine/types.ts";

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

/** Stock rows in payload order (stock, then date, then metric), then graph-statistics rows by date. */
export function tidyRows(data: ChartData): TidyRow[] {
  const rows: TidyRow[] = [];
  const push = (date: string, symbol: string, values: Partial<Record<Metric, MetricValue>>, community: number | null | undefined) => {
    for (const metric of data.metrics) rows.push({ date, symbol, metric, value: values[metric] ?? null, community: community ?? null });
  };
  if (data.type === "snapshot") {
    for (const s of data.stocks) push(data.asof_date, s.symbol, s, s.community);
  } else {
    for (const s of data.stocks) for (const p of s.points) push(p.date, s.symbol, p, p.community);
  }
  for (const g of data.graph_stats ?? []) rows.push(...statRows(g));
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
