/**
 * Loading aligned close series for the engine: the requested symbols' bars at the requested
 * interval (resampled from a finer stored one when needed) on their union calendar.
 */
import type { Database, Statement } from "bun:sqlite";
import { ChartError, INTERVALS, type Interval, type SeriesInput } from "../engine/types.ts";
import { getDataVersion } from "./data-version.ts";
import { rawDb, type DbHandle } from "./db-handle.ts";
import { bucketStart, chooseSourceInterval, servingIntervals } from "./intervals.ts";
import { formatLocal } from "./timestamps.ts";

export interface LoadedSeries {
  /** symbols in the given order; labels = union calendar; closes NaN where a symbol has no bar. */
  input: SeriesInput;
  /** Symbols with no bars at all, at any interval. */
  missing: string[];
  /** Symbols that have bars, but none at `sourceInterval` (their closes are all NaN). */
  unavailable: string[];
  /** The stored interval read (equal to the requested one unless resampled); null when every symbol is missing. */
  sourceInterval: Interval | null;
}

/** Cached results per connection; key = data version + interval + symbol list. */
const CACHE_MAX = 64;
const caches = new WeakMap<Database, Map<string, LoadedSeries>>();

interface Statements {
  has: Statement<{ x: number }, [string, string]>;
  rows: Statement<unknown, [string, string]>;
}
const statements = new WeakMap<Database, Statements>();

function prepared(db: Database): Statements {
  let s = statements.get(db);
  if (!s) {
    s = {
      has: db.prepare("SELECT 1 AS x FROM bars WHERE symbol = ? AND interval = ? LIMIT 1"),
      rows: db.prepare("SELECT ts, offset_min, close FROM bars WHERE symbol = ? AND interval = ? ORDER BY ts"),
    };
    statements.set(db, s);
  }
  return s;
}

/**
 * Loads `symbols` (order kept) at `interval`. The source interval is chosen for the request as a
 * whole: `interval` if any symbol stores it, else the finest stored interval that divides it.
 * Throws ChartError "interval-unavailable" when the symbols have bars but none that can serve `interval`.
 * The result may be shared with other callers through the cache: treat it as read-only.
 */
export function loadSeries(h: DbHandle, symbols: readonly string[], interval: Interval): LoadedSeries {
  const db = rawDb(h);
  const key = `${getDataVersion(db)}|${interval}|${symbols.join(",")}`;
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const result = load(db, symbols, interval);
  cache.set(key, result);
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  return result;
}

function load(db: Database, symbols: readonly string[], interval: Interval): LoadedSeries {
  const st = prepared(db);
  const stored = new Map<string, Interval[]>();
  for (const s of new Set(symbols))
    stored.set(
      s,
      INTERVALS.filter((iv) => st.has.get(s, iv) !== null),
    );
  return assembleSeries(symbols, interval, stored, (s, source) => st.rows.values(s, source) as [number, number, number][]);
}

/**
 * The series of `symbols` at `interval` from what each stores (`stored`, every requested symbol
 * present, [] when it has no bars) and its bars at a source interval as [ts, offset_min, close]
 * rows in ts order. Shared by both stores, so SQLite and PostgreSQL give identical results.
 */
export function assembleSeries(
  symbols: readonly string[],
  interval: Interval,
  stored: ReadonlyMap<string, readonly Interval[]>,
  rowsOf: (symbol: string, source: Interval) => Iterable<readonly [number, number, number]>,
): LoadedSeries {
  const missing = symbols.filter((s) => stored.get(s)!.length === 0);
  const union = INTERVALS.filter((iv) => [...stored.values()].some((list) => list.includes(iv)));
  if (union.length === 0) {
    return {
      input: { symbols: [...symbols], labels: [], closes: symbols.map(() => new Float64Array(0)) },
      missing,
      unavailable: [],
      sourceInterval: null,
    };
  }
  const source = chooseSourceInterval(interval, union);
  if (!source) {
    throw new ChartError(
      "interval-unavailable",
      `interval ${interval} is not available for these symbols: their bars are stored at ${union.join(", ")} only, ` +
        `and ${interval} can only be built from ${servingIntervals(interval).join(", ")}`,
    );
  }
  const unavailable = symbols.filter((s) => stored.get(s)!.length > 0 && !stored.get(s)!.includes(source));

  // Per symbol: bar (or bucket) starts and closes; a bucket's close is its last bar's close.
  const perSymbol = new Map<string, { ts: number[]; close: number[] }>();
  const offsetOf = new Map<number, number>();
  for (const s of stored.keys()) {
    const ts: number[] = [];
    const close: number[] = [];
    if (stored.get(s)!.includes(source)) {
      for (const [t, off, c] of rowsOf(s, source)) {
        const b = source === interval ? t : bucketStart(t, off, interval);
        if (ts.length > 0 && ts[ts.length - 1] === b) close[close.length - 1] = c;
        else {
          ts.push(b);
          close.push(c);
          if (!offsetOf.has(b)) offsetOf.set(b, off);
        }
      }
    }
    perSymbol.set(s, { ts, close });
  }
  const calendar = [...offsetOf.keys()].sort((a, b) => a - b);
  const index = new Map<number, number>();
  for (let k = 0; k < calendar.length; k++) index.set(calendar[k]!, k);
  const closes = symbols.map((s) => {
    const out = new Float64Array(calendar.length).fill(NaN);
    const { ts, close } = perSymbol.get(s)!;
    for (let i = 0; i < ts.length; i++) out[index.get(ts[i]!)!] = close[i]!;
    return out;
  });
  const labels = calendar.map((t) => formatLocal(t, offsetOf.get(t)!));
  return { input: { symbols: [...symbols], labels, closes }, missing, unavailable, sourceInterval: source };
}
