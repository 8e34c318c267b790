/**
 * Which bars exist, without their prices: per symbol, the stored intervals and, per (stored,
 * wanted) interval pair, the runs of calendar slots the symbol covers. The live endpoint decides
 * every refusal the data can cause (history length, as-of range, the interval) from this before a
 * request is admitted (docs/api.md § Refused before metering), so a refused request never loads a
 * series. Built once per data version from the primary-key index (timestamps only) and cached by
 * the caller.
 */
import { INTERVALS, type Interval } from "../engine/types.ts";
import { bucketStart, chooseSourceInterval } from "./intervals.ts";
import type { BarTime, MarketReads } from "./market-port.ts";
import { formatLocal } from "./timestamps.ts";

/** Every distinct bucket start of the symbols storing one interval, at a wanted interval. */
export interface Coverage {
  /** Bucket starts (UTC ms), ascending: the global calendar. */
  ts: Float64Array;
  /** The local offset (minutes) of each bucket, as the first symbol holding it had it. */
  offsets: Int32Array;
  /** Per symbol storing the source interval: inclusive [start, end] index pairs into ts, ascending. */
  runs: Map<string, Int32Array>;
  /** Source bars per (symbol, bucket) over the whole store: 1 unless resampled (a load's rows per bucket read). */
  barsPerBucket: number;
}

/** A symbol's bar starts and offsets at one stored interval, [ts, offset_min] in ts order. */
export type TimestampRows = Iterable<BarTime>;

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

/** Stored intervals by symbol (finest first), from every stored (symbol, interval) pair. */
export function storedBySymbol(pairs: readonly (readonly [string, Interval])[]): Map<string, Interval[]> {
  const bySymbol = new Map<string, Set<Interval>>();
  for (const [s, iv] of pairs) (bySymbol.get(s) ?? bySymbol.set(s, new Set()).get(s)!).add(iv);
  const out = new Map<string, Interval[]>();
  for (const s of [...bySymbol.keys()].sort())
    out.set(
      s,
      INTERVALS.filter((iv) => bySymbol.get(s)!.has(iv)),
    );
  return out;
}

/** The bar metadata of a database at `version`, over its market port: stored pairs now, timestamps as requests need them. */
export async function readCoverage(port: MarketReads, version: number): Promise<BarCoverage> {
  return new BarCoverage(version, storedBySymbol(await port.storedPairs()), async (symbols, source) => port.barTimes(symbols, source));
}

function build(rowsBySymbol: Map<string, TimestampRows>, source: Interval, wanted: Interval): Coverage {
  const perSymbol = new Map<string, number[]>();
  const offsetOf = new Map<number, number>();
  let bars = 0;
  let pairs = 0;
  for (const [s, rows] of rowsBySymbol) {
    const buckets: number[] = [];
    for (const [t, off] of rows) {
      bars++;
      const b = source === wanted ? t : bucketStart(t, off, wanted);
      if (buckets.length > 0 && buckets[buckets.length - 1] === b) continue;
      buckets.push(b);
      if (!offsetOf.has(b)) offsetOf.set(b, off);
    }
    perSymbol.set(s, buckets);
    pairs += buckets.length;
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
  return { ts, offsets, runs, barsPerBucket: pairs > 0 ? bars / pairs : 1 };
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
