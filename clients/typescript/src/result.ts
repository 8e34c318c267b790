/** An answer: the envelope's data and meta, its rate-limit headers, and its tidy rows. */
import type { components } from "./openapi.ts";

export type SnapshotData = components["schemas"]["SnapshotData"];
export type RollingData = components["schemas"]["RollingData"];
export type ChartData = SnapshotData | RollingData;
export type Meta = components["schemas"]["ChartEnvelope"]["meta"];
export type Edge = components["schemas"]["Edge"];
export type Graph = components["schemas"]["Graph"];
export type GraphStats = components["schemas"]["GraphStats"];
export type Spectrum = components["schemas"]["Spectrum"];
export type CorrMatrix = components["schemas"]["CorrMatrix"];

/** A graph object with its as-of (null only where an answer of another shape has none). */
export type DatedGraph = Omit<Graph, "asof_date"> & { asof_date: string | null };

/** spectrum=true: one graph's spectrum with its as-of. */
export interface SpectrumRow extends Spectrum {
  date: string | null;
}

/** include_corr=true: one graph's matrix with its as-of; `at(a, b)` is ρ between two of its symbols. */
export interface CorrMatrixAt extends CorrMatrix {
  date: string | null;
  at(a: string, b: string): number | null;
}

/** The five X-RateLimit-* headers of a metered answer. */
export interface RateLimit {
  limit: number;
  remaining: number;
  dailyLimit: number;
  dailyRemaining: number;
  /** Epoch seconds when the next minute slot frees. */
  reset: number;
}

/** One long row: a stock's metric at an as-of, with community/cluster/weight/sector… where present. */
export interface TidyRow {
  date: string;
  symbol: string;
  metric: string;
  value: number | null;
  [extra: string]: string | number | boolean | null;
}

export interface EdgeRow {
  date: string | null;
  source: string;
  target: string;
  weight: number;
  corr: number;
  [extra: string]: string | number | boolean | null;
}

type Scalar = string | number | boolean | null;
type Loose = Record<string, unknown>;

export function parseRateLimit(headers: Headers): RateLimit | null {
  const names = [
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Daily-Limit",
    "X-RateLimit-Daily-Remaining",
    "X-RateLimit-Reset",
  ];
  const values = names.map((n) => headers.get(n));
  if (values.some((v) => v === null || !Number.isFinite(Number(v)))) return null;
  const [limit, remaining, dailyLimit, dailyRemaining, reset] = values.map(Number) as [number, number, number, number, number];
  return { limit, remaining, dailyLimit, dailyRemaining, reset };
}

export class Result<D = unknown> {
  readonly data: D;
  readonly meta: Meta | Loose;
  readonly rateLimit: RateLimit | null;
  constructor(
    readonly text: string,
    readonly headers: Headers,
    body: { data?: D; meta?: Meta } | null,
  ) {
    this.data = (body?.data ?? null) as D;
    this.meta = body?.meta ?? {};
    this.rateLimit = parseRateLimit(headers);
  }
}

const isScalar = (v: unknown): v is Scalar => v === null || ["string", "number", "boolean"].includes(typeof v);

function extras(obj: Loose, metrics: string[]): Record<string, Scalar> {
  const out: Record<string, Scalar> = {};
  for (const [key, value] of Object.entries(obj)) {
    if (key === "symbol" || key === "date" || key === "points" || metrics.includes(key) || !isScalar(value)) continue;
    if (metrics.some((m) => key.startsWith(`${m}_`))) continue;
    out[key] = value;
  }
  return out;
}

function metricRows(date: string, symbol: string, obj: Loose, metrics: string[], base: Record<string, Scalar>): TidyRow[] {
  return metrics.map((metric) => {
    const row: TidyRow = { date, symbol, metric, value: (obj[metric] as number | null | undefined) ?? null, ...base };
    for (const [key, value] of Object.entries(obj))
      if (key.startsWith(`${metric}_`) && isScalar(value)) row[key.slice(metric.length + 1)] = value;
    return row;
  });
}

/** A chart answer in long rows (the TypeScript twin of Python's to_pandas()): snapshot and rolling alike. */
export class ChartResult extends Result<ChartData> {
  rows(): TidyRow[] {
    const data = this.data as unknown as Loose | null;
    if (!data) return [];
    if (!Array.isArray(data.metrics)) return genericRows(data);
    const metrics = data.metrics as string[];
    const rows: TidyRow[] = [];
    for (const stock of (data.stocks as Loose[] | undefined) ?? []) {
      const base = extras(stock, metrics);
      const symbol = stock.symbol as string;
      if (data.type === "rolling") {
        for (const point of (stock.points as Loose[] | undefined) ?? [])
          rows.push(...metricRows(point.date as string, symbol, point, metrics, { ...base, ...extras(point, metrics) }));
      } else {
        rows.push(...metricRows(data.asof_date as string, symbol, stock, metrics, base));
      }
    }
    return rows;
  }

  /** The edge list with each edge's as-of (and `reliability` with bootstrap): every as-of with include_graph=all, else the one graph. */
  edges(): EdgeRow[] {
    const data = this.data as unknown as Loose | null;
    if (!data) return [];
    const graphs = (data.graphs as Loose[] | undefined) ?? [(data.graph ?? data.latest_graph ?? {}) as Loose];
    return graphs.flatMap((g) =>
      ((g.edge_list as Loose[] | undefined) ?? []).map((e) => ({ date: ((g.asof_date ?? g.date) as string) ?? null, ...e }) as EdgeRow),
    );
  }

  /** The graph objects, each with its as-of: every as-of's with include_graph=all, else the snapshot's or the latest. */
  graphs(): DatedGraph[] {
    const data = this.data as unknown as Loose | null;
    if (!data) return [];
    if (Array.isArray(data.graphs) && data.graphs.length) return data.graphs as DatedGraph[];
    const one = (data.graph ?? data.latest_graph) as Graph | undefined;
    if (!one) return [];
    const dates = data.asof_dates as string[] | undefined;
    return [{ ...one, asof_date: one.asof_date ?? (data.asof_date as string | undefined) ?? dates?.at(-1) ?? null }];
  }

  /** Per-as-of graph statistics (`community_stability` beside `modularity` with bootstrap). */
  graphStats(): GraphStats[] {
    const data = this.data as unknown as Loose | null;
    return (data?.graph_stats as GraphStats[] | undefined) ?? [];
  }

  /** spectrum=true: each graph's eigenvalues (descending, before filtering), λ₊, n_above and absorption ratio, oldest first. */
  spectra(): SpectrumRow[] {
    return this.graphs().flatMap((g) => (g.spectrum ? [{ date: g.asof_date, ...g.spectrum }] : []));
  }

  /** The spectrum at `date` (YYYY-MM-DD or a Date, its UTC day; the latest when not given). */
  spectrum(date?: string | Date): SpectrumRow {
    return pick(this.spectra(), date, "spectrum", "spectrum=true");
  }

  /** include_corr=true: the matrix the graph at `date` (the latest when not given) was built from, after every filter. */
  corrMatrix(date?: string | Date): CorrMatrixAt {
    const found = this.graphs().flatMap((g) => (g.corr_matrix ? [{ date: g.asof_date, ...g.corr_matrix }] : []));
    const m = pick(found, date, "corr_matrix", "include_corr=true");
    const index = new Map(m.symbols.map((s, i) => [s, i]));
    return {
      ...m,
      at(a, b) {
        const i = index.get(a);
        const j = index.get(b);
        return i === undefined || j === undefined ? null : (m.matrix[i]?.[j] ?? null);
      },
    };
  }
}

/** The item on `date`'s day (the last when no date is given), or an error saying what to ask for. */
function pick<T extends { date: string | null }>(items: T[], date: string | Date | undefined, what: string, ask: string): T {
  if (!items.length) throw new Error(`no ${what} in this answer: ask with ${ask}`);
  if (date === undefined) return items.at(-1)!;
  const day = date instanceof Date ? date.toISOString().slice(0, 10) : date.slice(0, 10);
  const found = items.find((i) => (i.date ?? "").slice(0, 10) === day);
  if (found) return found;
  const have = items.map((i) => (i.date ?? "").slice(0, 10)).join(", ");
  throw new Error(`no ${what} at ${day} in this answer (it has ${have}; include_graph=all gives every as-of)`);
}

/**
 * Long rows from an answer of another shape (the interface binds only `data.stocks`): each stock's
 * numbers, also those nested one level (`measures: { degree: 3 }`), are metrics; an array of numbers
 * as long as an array of date strings in `data` is a series over those dates.
 */
function genericRows(data: Loose): TidyRow[] {
  const dates = Object.values(data).find((v): v is string[] => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string"));
  const when = (["asof_date", "as_of", "date"].map((k) => data[k]).find((v) => typeof v === "string") as string | undefined) ?? "";
  const rows: TidyRow[] = [];
  for (const stock of (data.stocks as Loose[] | undefined) ?? []) {
    const idKey = ["symbol", "ticker"].find((k) => k in stock) ?? Object.keys(stock).find((k) => typeof stock[k] === "string");
    const symbol = idKey ? String(stock[idKey]) : "";
    const flat: Loose = {};
    for (const [key, value] of Object.entries(stock)) {
      if (value && typeof value === "object" && !Array.isArray(value)) Object.assign(flat, value);
      else if (key !== idKey) flat[key] = value;
    }
    for (const [metric, value] of Object.entries(flat)) {
      if (Array.isArray(value) && dates && value.length === dates.length)
        for (const [i, v] of value.entries()) rows.push({ date: dates[i]!, symbol, metric, value: v as number | null });
      else if (typeof value === "number") rows.push({ date: when, symbol, metric, value });
    }
  }
  return rows;
}
