/**
 * Aligned close series for the engine: each symbol's bars at the requested interval (its buckets,
 * resampled from a finer stored interval when needed) on the union calendar of the symbols asked.
 * The pure parts (bucketing, assembly) are here; series-loader.ts decides what is read and cached.
 */
import { ChartError, INTERVALS, type Interval, type SeriesInput } from "../engine/types.ts";
import { bucketStart, chooseSourceInterval, servingIntervals } from "./intervals.ts";
import type { BarRow } from "./market-port.ts";
import { formatLocal } from "./timestamps.ts";

export interface LoadedSeries {
  /** symbols in the given order; labels = union calendar; closes NaN where a symbol has no bar. */
  input: SeriesInput;
  /** Symbols with no bars at all, at any interval (known only when the stored intervals were given). */
  missing: string[];
  /** Symbols that have bars, but none at `sourceInterval` (their closes are all NaN). */
  unavailable: string[];
  /** The stored interval read (equal to the requested one unless resampled); null when every symbol is missing. */
  sourceInterval: Interval | null;
}

/** One symbol's buckets at a wanted interval: starts (UTC ms), closes (the bucket's last bar) and local offsets (its first bar's). */
export interface Buckets {
  ts: Float64Array;
  close: Float64Array;
  offset: Int16Array;
}

/** The buckets of `rows` (bars at `source`, in ts order) at `interval` whose start lies in [from, to]. */
export function bucketRows(rows: readonly BarRow[], source: Interval, interval: Interval, from: number, to: number): Buckets {
  const ts = new Float64Array(rows.length);
  const close = new Float64Array(rows.length);
  const offset = new Int16Array(rows.length);
  let k = 0;
  for (const r of rows) {
    const t = r[1];
    const b = source === interval ? t : bucketStart(t, r[2], interval);
    if (b < from || b > to) continue;
    if (k > 0 && ts[k - 1] === b) close[k - 1] = r[3];
    else {
      ts[k] = b;
      close[k] = r[3];
      offset[k++] = r[2];
    }
  }
  // A resampled symbol's buckets are fewer than its rows: kept at their own length, not the rows'.
  return k === rows.length ? { ts, close, offset } : { ts: ts.slice(0, k), close: close.slice(0, k), offset: offset.slice(0, k) };
}

/** The buckets of `b` whose start lies in [from, to], as views (no copy). */
export function sliceBuckets(b: Buckets, from: number, to: number): Buckets {
  const lo = lowerBound(b.ts, from);
  const end = upperBound(b.ts, to);
  return { ts: b.ts.subarray(lo, end), close: b.close.subarray(lo, end), offset: b.offset.subarray(lo, end) };
}

function lowerBound(a: Float64Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upperBound(a: Float64Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The series of `symbols` (order kept) from each one's buckets (absent: no bar). A bucket's label
 * takes the offset of the first symbol, in request order, that has it.
 */
export function assembleSeries(symbols: readonly string[], buckets: ReadonlyMap<string, Buckets>): SeriesInput {
  const offsetOf = new Map<number, number>();
  for (const s of new Set(symbols)) {
    const b = buckets.get(s);
    if (!b) continue;
    for (let i = 0; i < b.ts.length; i++) if (!offsetOf.has(b.ts[i]!)) offsetOf.set(b.ts[i]!, b.offset[i]!);
  }
  const calendar = Float64Array.from(offsetOf.keys()).sort();
  const index = new Map<number, number>();
  for (let k = 0; k < calendar.length; k++) index.set(calendar[k]!, k);
  const closes = symbols.map((s) => {
    const out = new Float64Array(calendar.length).fill(NaN);
    const b = buckets.get(s);
    if (b) for (let i = 0; i < b.ts.length; i++) out[index.get(b.ts[i]!)!] = b.close[i]!;
    return out;
  });
  const labels = Array.from(calendar, (t) => formatLocal(t, offsetOf.get(t)!));
  return { symbols: [...symbols], labels, closes };
}

/**
 * The source interval for a request as a whole: `interval` if any symbol stores it, else the finest
 * stored interval that divides it; null when no symbol has bars. Throws ChartError
 * "interval-unavailable" when the symbols have bars but none that can serve `interval`.
 */
export function sourceFor(
  symbols: readonly string[],
  interval: Interval,
  stored: ReadonlyMap<string, readonly Interval[]>,
): Interval | null {
  const union = INTERVALS.filter((iv) => symbols.some((s) => stored.get(s)?.includes(iv)));
  if (union.length === 0) return null;
  const source = chooseSourceInterval(interval, union);
  if (!source) {
    throw new ChartError(
      "interval-unavailable",
      `interval ${interval} is not available for these symbols: their bars are stored at ${union.join(", ")} only, ` +
        `and ${interval} can only be built from ${servingIntervals(interval).join(", ")}`,
    );
  }
  return source;
}
