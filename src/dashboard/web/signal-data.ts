/**
 * What the signal-or-noise options add to an answer (docs/api.md § Signal or noise), read for the
 * charts: the spectra, one per as-of that carries one, and each stock's bootstrap band (its
 * `<metric>_p05` and `<metric>_p95` per point).
 */

type Metrics = Record<string, number | null>;
/** The parts of a graph object (network-data.ts GraphData) read here; network-data.ts imports this file. */
type WithSpectrum = { asof_date?: string; spectrum?: Spectrum };
type Answer =
  | { type: "snapshot"; asof_date: string; graph: WithSpectrum }
  | {
      type: "rolling";
      asof_dates: string[];
      metrics: string[];
      stocks: { symbol: string; points: Record<string, unknown>[] }[];
      latest_graph: WithSpectrum;
      graphs?: WithSpectrum[];
    };

/** spectrum=true: the eigenvalues of the as-of's correlation matrix before filtering, descending. */
export interface Spectrum {
  eigenvalues: (number | null)[];
  lambda_plus: number;
  n_above: number;
  absorption_ratio: number | null;
}

export interface DatedSpectrum {
  asof: string;
  spectrum: Spectrum;
}

/** One point's band: each metric's 5th and 95th percentile over the resamples (null outside the window). */
export interface Band {
  p05: Metrics;
  p95: Metrics;
}

const dated = (g: WithSpectrum | undefined, asof: string | undefined): DatedSpectrum[] =>
  g?.spectrum ? [{ asof: g.asof_date ?? asof ?? "", spectrum: g.spectrum }] : [];

/** A snapshot's one spectrum; a rolling answer's per as-of with include_graph=all, else its latest graph's. */
export function spectraOf(data: Answer): DatedSpectrum[] {
  if (data.type === "snapshot") return dated(data.graph, data.asof_date);
  const every = (data.graphs ?? []).flatMap((g, i) => dated(g, data.asof_dates[i]));
  return every.length ? every : dated(data.latest_graph, data.asof_dates.at(-1));
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** One stock's (or point's) band, or null when it carries no percentile (no bootstrap asked). */
export function bandOf(row: Record<string, unknown>, metrics: string[]): Band | null {
  if (!metrics.some((m) => `${m}_p05` in row)) return null;
  return {
    p05: Object.fromEntries(metrics.map((m) => [m, num(row[`${m}_p05`])])),
    p95: Object.fromEntries(metrics.map((m) => [m, num(row[`${m}_p95`])])),
  };
}

/** Each stock's band per point, or null when no point carries a percentile (no bootstrap asked). */
export function bandsOf(data: Answer): Record<string, Band[]> | null {
  if (data.type !== "rolling") return null;
  const keys = data.metrics.map((m) => [m, `${m}_p05`, `${m}_p95`] as const);
  const banded = data.stocks.some((s) => s.points.some((p) => keys.some(([, lo]) => lo in p)));
  if (!banded) return null;
  const band = (p: Record<string, unknown>): Band => ({
    p05: Object.fromEntries(keys.map(([m, lo]) => [m, num(p[lo])])),
    p95: Object.fromEntries(keys.map(([m, , hi]) => [m, num(p[hi])])),
  });
  return Object.fromEntries(data.stocks.map((s) => [s.symbol, s.points.map(band)]));
}
