/**
 * Tidy (long) exports of a chart's `data` for format=csv and format=ndjson: one row per
 * (date, symbol, metric) with columns date,symbol,metric,value,community, loadable with one
 * `pandas.read_csv`. Per-date graph statistics are rows of their own with an empty symbol and the
 * statistic's name as metric (community empty). Numbers are written exactly as JSON writes them,
 * so the CSV, the NDJSON and the JSON carry the same values; null becomes an empty cell (CSV) or
 * null (NDJSON). With clusters=k and weights, each (date, symbol) also has a `cluster` row (the
 * label) and a `weight` row, after its metrics; a rolling request's turnover is a row per date with
 * an empty symbol, like the statistics. The hierarchy's merges and leaf order are JSON only
 * (docs/api.md § Hierarchy). Signal or noise: with bootstrap, `<metric>_p05` and `<metric>_p95` rows after
 * each metric's row and `reliability:<target>` rows per edge (symbol = its source), a
 * community_stability statistic; with spectrum, `lambda_plus`, `n_above`, `absorption_ratio` and
 * `eigenvalue_<k>` rows per graph (empty symbol); with include_corr, `corr:<column symbol>` rows per
 * matrix cell (symbol = its row). Pure: the route decides headers and compression.
 */
import type { ChartData, DatedGraphOut, GraphOut, GraphStatsOut, Metric, MetricValue, Percentiles, StockExtras } from "../engine/types.ts";

export const TIDY_COLUMNS = ["date", "symbol", "metric", "value", "community"] as const;

export interface TidyRow {
  date: string;
  /** "" on graph-statistics rows. */
  symbol: string;
  metric: string;
  value: number | null;
  community: number | null;
}

const GRAPH_STATS = [
  "nodes",
  "edges",
  "n_communities",
  "modularity",
  "community_stability",
  "mean_abs_corr",
  "tree_length",
  "avg_shortest_path",
] as const;

/**
 * Stock rows in payload order (stock, then date, then metric and its percentiles, then cluster and
 * weight), then graph-statistics rows by date, then turnover rows by date, then per graph (by date)
 * its spectrum, edge reliability and matrix rows.
 */
export function tidyRows(data: ChartData): TidyRow[] {
  const rows: TidyRow[] = [];
  const push = (
    date: string,
    symbol: string,
    values: Partial<Record<Metric, MetricValue>> & StockExtras & Percentiles,
    community: number | null | undefined,
  ) => {
    const c = community ?? null;
    for (const metric of data.metrics) {
      rows.push({ date, symbol, metric, value: values[metric] ?? null, community: c });
      for (const key of [`${metric}_p05`, `${metric}_p95`] as const) {
        if (values[key] !== undefined) rows.push({ date, symbol, metric: key, value: values[key], community: c });
      }
    }
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
  const graphs = data.type === "snapshot" ? [data.graph] : (data.graphs ?? [data.latest_graph]);
  const dates = data.type === "snapshot" ? [data.asof_date] : data.graphs ? data.asof_dates : [data.asof_dates[data.asof_dates.length - 1]];
  graphs.forEach((g, k) => {
    rows.push(...graphRows(dates[k], g));
  });
  return rows;
}

function statRows(g: GraphStatsOut): TidyRow[] {
  return GRAPH_STATS.filter((metric) => g[metric] !== undefined).map((metric) => ({
    date: g.date,
    symbol: "",
    metric,
    value: g[metric] ?? null,
    community: null,
  }));
}

/** One graph's spectrum, edge reliability and matrix rows, where the graph carries them. */
function graphRows(date: string, g: GraphOut | DatedGraphOut): TidyRow[] {
  const rows: TidyRow[] = [];
  const row = (symbol: string, metric: string, value: number | null): void => {
    rows.push({ date, symbol, metric, value, community: null });
  };
  if (g.spectrum) {
    row("", "lambda_plus", g.spectrum.lambda_plus);
    row("", "n_above", g.spectrum.n_above);
    row("", "absorption_ratio", g.spectrum.absorption_ratio);
    for (const [k, v] of g.spectrum.eigenvalues.entries()) row("", `eigenvalue_${k + 1}`, v);
  }
  for (const e of g.edge_list ?? []) if (e.reliability !== undefined) row(e.source, `reliability:${e.target}`, e.reliability);
  if (g.corr_matrix) {
    const { symbols, matrix } = g.corr_matrix;
    for (const [i, r] of matrix.entries()) for (const [j, v] of r.entries()) row(symbols[i], `corr:${symbols[j]}`, v);
  }
  return rows;
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
