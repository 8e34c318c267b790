/**
 * Market data behind one interface: universes, which bars exist, series, the data version,
 * imports and the synthetic sample. One implementation (market-store.ts) over each database's
 * statements (market-port.ts); the chart service and the import command talk to this and never
 * learn which database is behind it.
 */
import type { Interval, SeriesInput } from "../engine/types.ts";
import type { Clock } from "../clock.ts";
import type { BarCoverage } from "./bar-coverage.ts";
import type { CsvSource, ImportOptions, ImportSummary } from "./csv-import.ts";
import type { SymbolMetadata, Universe } from "./market-port.ts";
import type { Deleted, Removed } from "./metadata-rules.ts";
import type { LoadSampleResult } from "./sample-policy.ts";
import type { LoadedSeries } from "./series.ts";
import type { LoadPlan } from "./series-loader.ts";
import type { LastBar, UniverseDetail, UniverseListing } from "./universe-catalogue.ts";

export interface MarketStore {
  readonly kind: "sqlite" | "postgres";
  /**
   * The data version: bumped by every import that changed something, through any instance.
   * Caches keyed by it follow imports made elsewhere within about a second (PostgreSQL polls;
   * SQLite reads it from the shared file each call).
   */
  dataVersion(): Promise<number>;
  /** Names of all universes, alphabetical. */
  listUniverses(): Promise<string[]>;
  /** A universe with its symbols in order, or null. */
  getUniverse(name: string): Promise<Universe | null>;
  /** Every universe as `GET /v1/universes` lists it, and the newest bar of each per interval (universe-catalogue.ts). */
  catalogue(version: number): Promise<{ universes: UniverseListing[]; lastBars: LastBar[] }>;
  /** One universe with each member's coverage and metadata, or null (universe-catalogue.ts). */
  universeDetail(name: string, version: number): Promise<UniverseDetail | null>;
  /** The metadata of those of `symbols` that have any (import-metadata). */
  symbolMetadata(symbols: readonly string[]): Promise<Map<string, SymbolMetadata>>;
  /** Writes symbols' metadata in one transaction, bumping the data version when anything changed; returns how many rows changed. */
  importMetadata(rows: readonly (SymbolMetadata & { symbol: string })[], now: number): Promise<number>;
  /** Takes members out of a universe (bars stay); null when there is no such universe. */
  removeMembers(name: string, symbols: readonly string[]): Promise<Removed | null>;
  /** Deletes a universe, with `purge` also the bars no other universe lists; null when there is none. */
  deleteUniverse(name: string, purge: boolean): Promise<Deleted | null>;
  /** Every symbol with at least one bar, alphabetical. */
  knownSymbols(): Promise<string[]>;
  /** Stored intervals per symbol with bars (finest first). */
  storedIntervals(): Promise<Map<string, Interval[]>>;
  /** Bar metadata (no prices) at the given data version; the caller caches it per version. */
  barCoverage(version: number): Promise<BarCoverage>;
  /** Every stored bar of `symbols` at `interval`, resampled when needed (series.ts rules); read-only. */
  loadSeries(symbols: readonly string[], interval: Interval): Promise<LoadedSeries>;
  /** The series over a request's planned buckets only (series-loader.ts), through this process's series cache; read-only. */
  loadPlanned(symbols: readonly string[], interval: Interval, plan: LoadPlan): Promise<SeriesInput>;
  /** Bytes this store's series cache holds (the event loop's share; compute threads hold their own). */
  seriesCacheBytes(): number;
  /** Sets the bound of this store's series cache (the chart service splits --series-cache-mb between it and the threads). */
  limitSeriesCache(bytes: number): void;
  /**
   * The database file compute threads can read series from themselves, or null when the caller
   * must load them through loadPlanned and hand them over (PostgreSQL, in-memory SQLite).
   */
  readonly threadPath: string | null;
  /** Imports CSV files, each all or nothing (import-rules.ts). */
  importCsvFiles(paths: readonly string[], opts: ImportOptions): Promise<ImportSummary>;
  /** Imports CSV contents held in memory. */
  importCsvSources(sources: readonly CsvSource[], opts: ImportOptions): Promise<ImportSummary>;
  /** Loads the synthetic sample universe (idempotent). */
  loadSample(clock?: Clock): Promise<LoadSampleResult>;
}
