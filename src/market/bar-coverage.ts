/**
 * Which bars exist, without their prices: per symbol, the stored intervals and, per (stored,
 * wanted) interval pair, the runs of calendar slots the symbol covers. The live endpoint decides
 * every refusal the data can cause (history length, as-of range, the interval) from this before a
 * request is admitted (DECISIONS §6), so a refused request never loads a series. Built once per
 * data version from the primary-key index (timestamps only) and cached by the caller.
 */
import type { Database } from "bun:sqlite";
import { INTERVALS, type Interval } from "../engine/types.ts";
import { rawDb, type DbHandle } from "./db-handle.ts";
import { bucketStart } from "./intervals.ts";
import { formatLocal } from "./timestamps.ts";
import { knownSymbols } from "./universes.ts";

/** Every distinct bucket start of the symbols storing one interval, at a wanted interval. */
export interface Coverage {
  /** Bucket starts (UTC ms), ascending: the global calendar. */
  ts: Float64Array;
  /** The local offset (minutes) of each bucket, as the first symbol holding it had it. */
  offsets: Int32Array;
  /** Per symbol storing the source interval: inclusive [start, end] index pairs into ts, ascending. */
  runs: Map<string, Int32Array>;
}

export class BarCoverage {
  /** Stored intervals by symbol (only symbols with bars). */
  readonly stored = new Map<string, Interval[]>();
  private readonly pairs = new Map<string, Coverage>();

  constructor(
    private readonly h: DbHandle,
    /** The data version this was read at; the caller drops it when the version moves. */
    readonly version: number,
  ) {
    const db = rawDb(h);
    const has = db.prepare<{ x: number }, [string, string]>("SELECT 1 AS x FROM bars WHERE symbol = ? AND interval = ? LIMIT 1");
    for (const s of knownSymbols(db)) this.stored.set(s, INTERVALS.filter((iv) => has.get(s, iv) !== null));
    has.finalize();
  }

  /** The calendar of `symbols` read from `source`, bucketed to `wanted` (built on first use). */
  coverage(source: Interval, wanted: Interval): Coverage {
    const key = `${source}>${wanted}`;
    let c = this.pairs.get(key);
    if (!c) this.pairs.set(key, (c = build(rawDb(this.h), [...this.stored].filter(([, ivs]) => ivs.includes(source)).map(([s]) => s), source, wanted)));
    return c;
  }
}

function build(db: Database, symbols: string[], source: Interval, wanted: Interval): Coverage {
  const rows = db.prepare<[number, number], [string, string]>("SELECT ts, offset_min FROM bars WHERE symbol = ? AND interval = ? ORDER BY ts");
  const perSymbol = new Map<string, number[]>();
  const offsetOf = new Map<number, number>();
  for (const s of symbols) {
    const buckets: number[] = [];
    for (const [t, off] of rows.values(s, source) as [number, number][]) {
      const b = source === wanted ? t : bucketStart(t, off, wanted);
      if (buckets.length > 0 && buckets[buckets.length - 1] === b) continue;
      buckets.push(b);
      if (!offsetOf.has(b)) offsetOf.set(b, off);
    }
    perSymbol.set(s, buckets);
  }
  rows.finalize();
  const ts = Float64Array.from(offsetOf.keys()).sort();
  const offsets = Int32Array.from(ts, (t) => offsetOf.get(t)!);
  const index = new Map<number, number>();
  ts.forEach((t, k) => index.set(t, k));
  const runs = new Map<string, Int32Array>();
  for (const [s, buckets] of perSymbol) {
    const pairs: number[] = [];
    for (const b of buckets) {
      const k = index.get(b)!;
      if (pairs.length > 0 && pairs[pairs.length - 1] === k - 1) pairs[pairs.length - 1] = k;
      else pairs.push(k, k);
    }
    runs.set(s, Int32Array.from(pairs));
  }
  return { ts, offsets, runs };
}

/**
 * The union calendar of some symbols (DECISIONS §2: the sorted union of their bar timestamps),
 * as disjoint runs of global slots; position k is the k-th bar of that calendar, as the engine
 * numbers it after loading the series.
 */
export class UnionCalendar {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** Calendar positions before each run. */
  private readonly before: number[] = [];
  readonly length: number;

  constructor(
    private readonly c: Coverage,
    symbols: readonly string[],
  ) {
    const all: [number, number][] = [];
    for (const s of symbols) {
      const r = c.runs.get(s);
      if (r) for (let i = 0; i < r.length; i += 2) all.push([r[i]!, r[i + 1]!]);
    }
    all.sort((a, b) => a[0] - b[0]);
    let n = 0;
    for (const [a, b] of all) {
      const last = this.ends.length - 1;
      if (last >= 0 && a <= this.ends[last]! + 1) {
        if (b > this.ends[last]!) {
          n += b - this.ends[last]!;
          this.ends[last] = b;
        }
      } else {
        this.starts.push(a);
        this.ends.push(b);
        this.before.push(n);
        n += b - a + 1;
      }
    }
    this.length = n;
  }

  /** The global slot of calendar position k (0 ≤ k < length). */
  slot(k: number): number {
    let lo = 0;
    let hi = this.before.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.before[mid]! <= k) lo = mid;
      else hi = mid - 1;
    }
    return this.starts[lo]! + (k - this.before[lo]!);
  }

  /** The exchange-local label of position k, as loadSeries writes it. */
  label(k: number): string {
    const g = this.slot(k);
    return formatLocal(this.c.ts[g]!, this.c.offsets[g]!);
  }

  /** Labels as a read-only array-like, for code written against SeriesInput.labels (read lazily). */
  labels(): string[] {
    return new Proxy([] as string[], {
      get: (target, prop) => {
        if (prop === "length") return this.length;
        if (typeof prop === "string" && /^\d+$/.test(prop)) return Number(prop) < this.length ? this.label(Number(prop)) : undefined;
        return Reflect.get(target, prop);
      },
    });
  }

  /** How many bars `symbol` has at calendar positions from..to (inclusive). */
  barsBetween(symbol: string, from: number, to: number): number {
    const r = this.c.runs.get(symbol);
    if (!r) return 0;
    const a = this.slot(from);
    const b = this.slot(to);
    let n = 0;
    for (let i = 0; i < r.length; i += 2) n += Math.max(0, Math.min(b, r[i + 1]!) - Math.max(a, r[i]!) + 1);
    return n;
  }
}
