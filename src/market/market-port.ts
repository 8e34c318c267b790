/**
 * What each database implements for the market: its statements, none of the policy. The policies
 * over it — the series cache and range reads (series-loader.ts), the source-interval choice, universe
 * extension (universe-rules.ts), imports (import-rules.ts), the sample (sample-policy.ts) — are
 * written once; db/sqlite/market-statements.ts and db/pg/market-statements.ts each implement only
 * this, and one contract suite (market-contract.test.ts) runs on both. SQLite answers
 * synchronously, PostgreSQL with promises.
 */
import type { Interval } from "../engine/types.ts";
import type { BarStage } from "./bar-writer.ts";
import type { StoredKey } from "./offset-clashes.ts";
import type { Maybe } from "./rule.ts";
import type { SampleSeries } from "./sample-generator.ts";

export type UniverseSource = "synthetic" | "imported";

/** A named, ordered list of symbols (src/market/README.md § Rules). */
export interface Universe {
  name: string;
  symbols: string[];
  source: UniverseSource;
}

/**
 * A bar as the engine reads it: start (UTC ms), local offset (minutes) and close, after a first
 * column the statement chooses (its symbol, or 0) — the row as the driver hands it over, kept as it
 * is (a copy per row cost ~0.3 µs of the ~1 µs a row).
 */
export type BarRow = readonly [tag: string | number, ts: number, offsetMin: number, close: number];

/** A bar's start and local offset, without its prices (bar coverage). */
export type BarTime = readonly [ts: number, offsetMin: number];

/** A symbol's bars at one interval: its first and last bar (start, local offset) and how many there are. */
export interface BarSpan {
  first: BarTime;
  last: BarTime;
  bars: number;
}

/** What is known of a symbol beyond its bars (`import-metadata`); null where not given. */
export interface SymbolMetadata {
  name: string | null;
  sector: string | null;
  industry: string | null;
}

export interface MarketReads {
  /** `settings.data_version` (0 before any data was written). */
  dataVersion(): Maybe<number>;
  setting(key: string): Maybe<string | null>;
  /** Every universe's name, alphabetical. */
  universeNames(): Maybe<string[]>;
  /** The universe's row, or null. */
  universe(name: string): Maybe<{ source: UniverseSource } | null>;
  /** The universe's members in position order. */
  members(name: string): Maybe<{ symbol: string; position: number }[]>;
  /** Every stored (symbol, interval) pair, by index seeks (no bar is read). */
  storedPairs(): Maybe<[string, Interval][]>;
  /** The bar times of each symbol at `interval`, in ts order (every symbol asked has an entry). */
  barTimes(symbols: readonly string[], interval: Interval): Maybe<Map<string, BarTime[]>>;
  /**
   * The bars of each symbol at `interval` with `from ≤ ts ≤ to`, in ts order (every symbol asked
   * has an entry): a request reads only the bars under its windows, whatever the stored history.
   */
  barRange(symbols: readonly string[], interval: Interval, from: number, to: number): Maybe<Map<string, BarRow[]>>;
  /** Each symbol's first bar, last bar and bar count at `interval`, by index seeks; symbols without bars there are absent. */
  barSpans(symbols: readonly string[], interval: Interval): Maybe<Map<string, BarSpan>>;
  /** The distinct bar starts of `symbols` at `interval`, ascending: their union calendar. */
  calendar(symbols: readonly string[], interval: Interval): Maybe<number[]>;
  /** The metadata of those of `symbols` that have any. */
  metadata(symbols: readonly string[]): Maybe<Map<string, SymbolMetadata>>;
}

/** Statements inside the one transaction that holds the market write lock. */
export interface MarketWrites extends MarketReads {
  createUniverse(name: string, source: UniverseSource, now: number): Maybe<void>;
  /** Appends `symbols` at positions first, first + 1, … */
  addMembers(name: string, symbols: readonly string[], first: number): Maybe<void>;
  /** Increments the data version; returns the new value. */
  bumpDataVersion(): Maybe<number>;
  setSetting(key: string, value: string): Maybe<void>;
  /** The stored bar keys of each symbol at `interval` (the offset-clash check). */
  storedKeys(symbols: readonly string[], interval: Interval): Maybe<Map<string, StoredKey[]>>;
  deleteBar(symbol: string, interval: Interval, ts: number): Maybe<void>;
  /** Upserts the staged bars under `interval`; identical rows are not rewritten. */
  upsertStaged(stage: BarStage, interval: Interval): Maybe<{ inserted: number; updated: number }>;
  /** Takes `symbols` out of the universe's members (their bars stay); returns how many were members. */
  removeMembers(name: string, symbols: readonly string[]): Maybe<number>;
  /** Deletes the universe and its member list (not its bars). */
  deleteUniverse(name: string): Maybe<void>;
  /** Deletes every bar of `symbols` at every interval; returns how many. */
  deleteBars(symbols: readonly string[]): Maybe<number>;
  /** Writes each symbol's metadata, replacing what it had; returns how many rows changed. */
  upsertMetadata(rows: readonly (SymbolMetadata & { symbol: string })[], now: number): Maybe<number>;
  /** Deletes every bar of the series' symbols, then inserts each series' 1d and 1m bars (the sample). */
  replaceBars(series: readonly SampleSeries[]): Maybe<void>;
}

export interface MarketPort extends MarketReads {
  readonly kind: "sqlite" | "postgres";
  /** Runs `write` in one transaction holding the market write lock; returns its answer. */
  locked<T>(write: (tx: MarketWrites) => Maybe<T>): Maybe<T>;
  /**
   * A stage for importing files: SQLite stages in a TEMP table of its own connection (never the
   * shared file), PostgreSQL in a private temporary SQLite file. `close` frees it.
   */
  openStage(): { stage: BarStage; close(): void };
  /** The database file a compute thread can open and read itself, or null (PostgreSQL, in-memory SQLite). */
  readonly threadPath: string | null;
  /** Told the new data version after a write through this port (a cached version read follows at once). */
  bumped?(version: number): void;
}
