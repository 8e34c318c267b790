/**
 * Which bars exist, without their prices: per symbol, the stored intervals and, per (stored,
 * wanted) interval pair, the runs of calendar slots the symbol covers. The live endpoint decides
 * every refusal the data can cause (history length, as-of range, the interval) from this before a
 * request is admitted (docs/api.md § Refused before metering), so a refused request never loads a
 * series. Built once per data version from the primary-key index (timestamps only) and cached by
 * the caller.
 */
import { INTERVALS, type Interval } from "../engine/types.ts";
import { rawDb, type DbHandle } from "./db-handle.ts";
import { bucketStart, chooseSourceInterval } from "./intervals.ts";
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

/** A symbol's bar starts and offsets at one stored interval, [ts, offset_min] in ts order. */
export type TimestampRows = Iterable<readonly [number, number]>;

/** Reads the bar timestamps of `symbols` at `source` (the store's job: SQLite or PostgreSQL). */
export type TimestampReader = (symbols: string[], source: Interval) => Promise<Map<string, TimestampRows>>;

export class BarCoverage {
  private readonly pairs = new Map<string, Coverage>();
  private readonly loading = new Map<string, Promise<void>>();

  constructor(
    /** The data version this was read at; the caller drops it when the version moves. */
    readonly version: number,
    /** Stored intervals by symbol (only symbols with bars). */
    readonly stored: ReadonlyMap<string, Interval[]>,
    private readonly read: TimestampReader,
  ) {}

  /**
   * Builds (once) the coverage a request for `symbols` at `wanted` reads, so coverage() can answer
   * synchronously; nothing to do when no stored interval can serve it (the precheck refuses that).
   */
  async ready(symbols: readonly string[], wanted: Interval): Promise<void> {
    const union = INTERVALS.filter((iv) => symbols.some((s) => this.stored.get(s)?.includes(iv)));
    const source = chooseSourceInterval(wanted, union);
    if (!source) return;
    const key = `${source}>${wanted}`;
    if (this.pairs.has(key)) return;
    let p = this.loading.get(key);
    if (!p) {
      const holders = [...this.stored].filter(([, ivs]) => ivs.includes(source)).map(([s]) => s);
      p = this.read(holders, source).then((rows) => void this.pairs.set(key, build(rows, source, wanted)));
      this.loading.set(key, p);
      p.finally(() => this.loading.delete(key)).catch(() => {});
    }
    await p;
  }

  /** The calendar of the symbols storing `source`, bucketed to `wanted`; ready() must have built it. */
  coverage(source: Interval, wanted: Interval): Coverage {
    const c = this.pairs.get(`${source}>${wanted}`);
    if (!c) throw new Error(`bar coverage ${source}>${wanted} was not built: await ready() first`);
    return c;
  }
}

/** Bar metadata of a SQLite database: stored intervals by index seeks, timestamps from the primary key. */
export function sqliteCoverage(h: DbHandle, version: number): BarCoverage {
  const db = rawDb(h);
  return new BarCoverage(version, storedIntervals(db), async (symbols, source) => {
    const rows = db.prepare<[number, number], [string, string]>(
      "SELECT ts, offset_min FROM bars WHERE symbol = ? AND interval = ? ORDER BY ts",
    );
    const out = new Map<string, TimestampRows>();
    for (const s of symbols) out.set(s, rows.values(s, source) as [number, number][]);
    rows.finalize();
    return out;
  });
}

/** Stored intervals of every symbol with bars, by index seeks (no bar is read). */
export function storedIntervals(h: DbHandle): Map<string, Interval[]> {
  const db = rawDb(h);
  const has = db.prepare<{ x: number }, [string, string]>("SELECT 1 AS x FROM bars WHERE symbol = ? AND interval = ? LIMIT 1");
  const stored = new Map<string, Interval[]>();
  for (const s of knownSymbols(db))
    stored.set(
      s,
      INTERVALS.filter((iv) => has.get(s, iv) !== null),
    );
  has.finalize();
  return stored;
}

function build(rowsBySymbol: Map<string, TimestampRows>, source: Interval, wanted: Interval): Coverage {
  const perSymbol = new Map<string, number[]>();
  const offsetOf = new Map<number, number>();
  for (const [s, rows] of rowsBySymbol) {
    const buckets: number[] = [];
    for (const [t, off] of rows) {
      const b = source === wanted ? t : bucketStart(t, off, wanted);
      if (buckets.length > 0 && buckets[buckets.length - 1] === b) continue;
      buckets.push(b);
      if (!offsetOf.has(b)) offsetOf.set(b, off);
    }
    perSymbol.set(s, buckets);
  }
  const ts = Float64Array.from(offsetOf.keys()).sort();
  const offsets = Int32Array.from(ts, (t) => offsetOf.get(t)!);
  const index = new Map<number, number>();
  for (let k = 0; k < ts.length; k++) index.set(ts[k]!, k);
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
 * The union calendar of some symbols (README.md § How the numbers are computed: the sorted union of
 * their bar times), as disjoint runs of global slots; position k is the k-th bar of that calendar,
 * as the engine numbers it after loading the series.
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
    // A difference array over the global slots (+1 where a run starts, −1 after it ends), then one
    // pass: O(runs + slots). Sorting the runs cost 50 ms per request for 500 daily symbols whose
    // offset differs from the rest of the calendar's (every run one slot long), on the event loop.
    const depth = new Int32Array(c.ts.length + 1);
    for (const s of symbols) {
      const r = c.runs.get(s);
      if (!r) continue;
      for (let i = 0; i < r.length; i += 2) {
        depth[r[i]!]!++;
        depth[r[i + 1]! + 1]!--;
      }
    }
    let n = 0;
    let open = 0;
    for (let g = 0; g < c.ts.length; g++) {
      const was = open;
      open += depth[g]!;
      if (open > 0 && was === 0) {
        this.starts.push(g);
        this.before.push(n);
      }
      if (open > 0) n++;
      if (open > 0 && open + depth[g + 1]! === 0) this.ends.push(g);
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

  /** The UTC offset (minutes) of `symbol`'s latest bar, or null when it has none here. */
  offsetOf(symbol: string): number | null {
    const r = this.c.runs.get(symbol);
    return r && r.length > 0 ? this.c.offsets[r[r.length - 1]!]! : null;
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
