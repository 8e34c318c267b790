/**
 * Loading a request's series, written once for both databases (docs/api.md § Series cache): the
 * precheck says which buckets the request's windows cover (its LoadPlan: the as-of calendar's
 * `lookback + 1 + (periods − 1)·step` bars and the source interval), and only the bars under them
 * are read, by time range, whatever history is stored. Each symbol's buckets are cached per (symbol,
 * source, interval), so another order or a subset of the same symbols reads nothing again, and the
 * assembled series per exact request, both inside one byte bound (series-cache.ts).
 */
import type { Database } from "bun:sqlite";
import type { Interval, SeriesInput } from "../engine/types.ts";
import { rawDb, type DbHandle } from "./db-handle.ts";
import { storedBySymbol } from "./bar-coverage.ts";
import { INTERVAL_MS } from "./intervals.ts";
import type { MarketReads } from "./market-port.ts";
import { answer, type Rule, run, synchronously } from "./rule.ts";
import { assembleSeries, type Buckets, bucketRows, type LoadedSeries, sliceBuckets, sourceFor } from "./series.ts";
import { SeriesCache } from "./series-cache.ts";
import { portOf } from "./sqlite-port.ts";

/** What a request reads: bucket starts from..to (inclusive, UTC ms) at its interval, from `source` bars, at a data version. */
export interface LoadPlan {
  version: number;
  source: Interval;
  from: number;
  to: number;
}

/** A symbol's cached buckets and the range of bucket starts they cover (every bucket in it is there). */
interface Covered {
  from: number;
  to: number;
  buckets: Buckets;
}

/** Counts of what loads did (tests count rows read; /metrics could). */
export interface LoadStats {
  /** Bars read from the database. */
  rows: number;
  /** Symbols whose bars were read. */
  reads: number;
  /** Symbols served from cached buckets. */
  bucketHits: number;
  /** Whole requests served from an assembled series. */
  seriesHits: number;
}

const bucketBytes = (b: Buckets) => b.ts.byteLength + b.close.byteLength + b.offset.byteLength;
/** A label string (25 ASCII characters) and its slot, and a series' array and header. */
const LABEL_BYTES = 64;
const seriesBytes = (s: SeriesInput) => s.labels.length * LABEL_BYTES + s.closes.reduce((n, c) => n + c.byteLength + 64, 0);

export class SeriesLoader {
  readonly stats: LoadStats = { rows: 0, reads: 0, bucketHits: 0, seriesHits: 0 };
  /** Stored intervals by symbol at a data version, for whole-history loads (read once per version). */
  private pairs: { version: number; bySymbol: Map<string, Interval[]> } | null = null;

  constructor(
    private readonly port: MarketReads,
    readonly cache: SeriesCache,
  ) {}

  /** The series of `symbols` (order kept) at `interval` over the plan's buckets. Read-only: it may be shared. */
  *planRule(symbols: readonly string[], interval: Interval, plan: LoadPlan): Rule<SeriesInput> {
    const { source, from, to } = plan;
    this.cache.at(plan.version);
    const whole = `S|${source}>${interval}|${from}|${to}|${symbols.join(",")}`;
    const hit = this.cache.get<SeriesInput>(whole);
    if (hit) {
      this.stats.seriesHits++;
      return hit;
    }
    const buckets = new Map<string, Buckets>();
    const need: string[] = [];
    for (const s of new Set(symbols)) {
      const c = this.cache.get<Covered>(`B|${source}>${interval}|${s}`);
      if (c && c.from <= from && to <= c.to) {
        buckets.set(s, sliceBuckets(c.buckets, from, to));
        this.stats.bucketHits++;
      } else need.push(s);
    }
    if (need.length > 0) {
      // A bucket starting at `to` holds bars up to one interval later.
      const last = source === interval ? to : to + INTERVAL_MS[interval] - 1;
      const rows = yield* answer(this.port.barRange(need, source, from, last));
      for (const s of need) {
        const r = rows.get(s) ?? [];
        this.stats.rows += r.length;
        this.stats.reads++;
        const b = bucketRows(r, source, interval, from, to);
        buckets.set(s, b);
        this.cache.set(`B|${source}>${interval}|${s}`, { from, to, buckets: b } satisfies Covered, bucketBytes(b));
      }
    }
    const input = assembleSeries(symbols, buckets);
    this.cache.set(whole, input, seriesBytes(input));
    return input;
  }

  /** Every stored bar of `symbols` at `interval` (no plan: the CLI, tests), with which are missing or unavailable. */
  *wholeRule(symbols: readonly string[], interval: Interval): Rule<LoadedSeries> {
    const version = yield* answer(this.port.dataVersion());
    if (this.pairs?.version !== version) this.pairs = { version, bySymbol: storedBySymbol(yield* answer(this.port.storedPairs())) };
    const stored = new Map<string, Interval[]>(symbols.map((s) => [s, this.pairs!.bySymbol.get(s) ?? []]));
    const missing = symbols.filter((s) => stored.get(s)!.length === 0);
    const source = sourceFor(symbols, interval, stored);
    if (source === null) {
      const input = { symbols: [...symbols], labels: [], closes: symbols.map(() => new Float64Array(0)) };
      return { input, missing, unavailable: [], sourceInterval: null };
    }
    const unavailable = symbols.filter((s) => stored.get(s)!.length > 0 && !stored.get(s)!.includes(source));
    const input = yield* this.planRule(symbols, interval, { version, source, from: -Infinity, to: Infinity });
    return { input, missing, unavailable, sourceInterval: source };
  }
}

/** A SQLite connection's own loader (the synchronous entry points), with a small cache. */
const LOCAL_CACHE_BYTES = 16 * 2 ** 20;
const loaders = new WeakMap<Database, SeriesLoader>();

export function loaderOf(h: DbHandle): SeriesLoader {
  const db = rawDb(h);
  let l = loaders.get(db);
  if (!l) loaders.set(db, (l = new SeriesLoader(portOf(db), new SeriesCache(LOCAL_CACHE_BYTES))));
  return l;
}

/**
 * Every bar of `symbols` (order kept) at `interval` from a SQLite connection, resampled when
 * needed, through the connection's loader and its cache. The result may be shared: read-only.
 */
export function loadSeries(h: DbHandle, symbols: readonly string[], interval: Interval): LoadedSeries {
  return synchronously(run(loaderOf(h).wholeRule(symbols, interval)));
}
