// Heavy, distinct live requests for load/compute.js. Pure, so `bun test` checks them.

/** Rolling Spearman on the complete graph: no sliding moments and every pair an edge, so each request computes for a while. */
export const DEFAULT_HEAVY_QUERY = "interval=1d&lookback=120&periods=120&corr_method=spearman&graph_method=complete&include_graph=false";

/** The as-of range that suits the synthetic sample (daily bars 2022-01-03 … 2025-09-30): every as-of has the bars the default query needs. */
export const DEFAULT_FIRST_ASOF = "2024-01-01";
export const DEFAULT_LAST_ASOF = "2025-09-30";

const DAY_MS = 86400000;

/**
 * Parses a plain date `YYYY-MM-DD` to UTC milliseconds.
 * @param {string} name option name for the message
 * @param {string} value
 * @returns {number}
 */
export function dateOption(name, value) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) {
    throw new Error(`${name} must be a date YYYY-MM-DD, got '${value}'`);
  }
  return ms;
}

/**
 * The n-th heavy request (n = 0, 1, …): the base query with an `asof` stepping one calendar day
 * at a time through [first, last], then again with corr_threshold 0.500001, 0.500002, … (which
 * the complete graph ignores, so the work is the same), so no two n share a query and the
 * server's result cache never answers one. A weekend as-of resolves to the Friday before, which
 * still computes: the cache is keyed by the parameters as given.
 * @param {number} n
 * @param {{ baseQuery: string, firstMs: number, lastMs: number }} opts
 * @returns {string}
 */
export function heavyQuery(n, opts) {
  if (!(opts.lastMs >= opts.firstMs)) throw new Error("the last as-of must not be before the first");
  const span = Math.floor((opts.lastMs - opts.firstMs) / DAY_MS) + 1;
  const round = Math.floor(n / span);
  const asof = new Date(opts.firstMs + (n % span) * DAY_MS).toISOString().slice(0, 10);
  return `${opts.baseQuery}&asof=${asof}${round > 0 ? `&corr_threshold=${(0.5 + round / 1e6).toFixed(6)}` : ""}`;
}
