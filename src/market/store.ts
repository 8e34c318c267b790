/**
 * Market data behind one interface (issue #14): universes, which bars exist, series, the data
 * version, imports and the synthetic sample — implemented over SQLite (sqlite-store.ts, the
 * embedded default) and PostgreSQL (pg/pg-store.ts, shared by several instances). The chart
 * service and the import command talk to this and never learn which database is behind it.
 */
import type { Interval } from "../engine/types.ts";
import type { Clock } from "../clock.ts";
import type { BarCoverage } from "./bar-coverage.ts";
import type { CsvSource, ImportOptions, ImportSummary } from "./csv-import.ts";
import type { LoadSampleResult } from "./sample-policy.ts";
import type { LoadedSeries } from "./series.ts";
import type { Universe } from "./universes.ts";

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
  /** Every symbol with at least one bar, alphabetical. */
  knownSymbols(): Promise<string[]>;
  /** Stored intervals per symbol with bars (finest first). */
  storedIntervals(): Promise<Map<string, Interval[]>>;
  /** Bar metadata (no prices) at the given data version; the caller caches it per version. */
  barCoverage(version: number): Promise<BarCoverage>;
  /** Aligned closes of `symbols` at `interval`, resampled when needed (series.ts rules); read-only. */
  loadSeries(symbols: readonly string[], interval: Interval): Promise<LoadedSeries>;
  /**
   * Where a compute thread can load these symbols itself (a SQLite file), or null when the
   * caller must load them through loadSeries and hand them over (PostgreSQL, in-memory SQLite).
   */
  threadSource(symbols: string[]): { db: string; symbols: string[] } | null;
  /** Imports CSV files, each all or nothing (csv-import.ts rules). */
  importCsvFiles(paths: readonly string[], opts: ImportOptions): Promise<ImportSummary>;
  /** Imports CSV contents held in memory. */
  importCsvSources(sources: readonly CsvSource[], opts: ImportOptions): Promise<ImportSummary>;
  /** Loads the synthetic sample universe (idempotent). */
  loadSample(clock?: Clock): Promise<LoadSampleResult>;
}
