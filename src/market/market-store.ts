/**
 * The MarketStore, written once over a database's market port (market-port.ts): the data
 * version's read policy, universes, coverage, series through the series loader and its cache,
 * imports and the sample.
 *
 * On PostgreSQL the data version is read at most once a `versionTtlMs` (cached in between), so an
 * import through any instance reaches every other instance's caches within about a second, at the
 * cost of one tiny query per second per instance; an import through this one is seen at once. On
 * SQLite it is read from the shared file each call (a raw indexed read), so the TTL is 0.
 */
import { systemClock } from "../clock.ts";
import { readCoverage, storedBySymbol } from "./bar-coverage.ts";
import { fileReadables, textReadables } from "./csv-import.ts";
import { importRule } from "./import-rules.ts";
import type { MarketPort } from "./market-port.ts";
import { run } from "./rule.ts";
import { loadSampleRule } from "./sample-policy.ts";
import { SeriesCache } from "./series-cache.ts";
import { SeriesLoader } from "./series-loader.ts";
import type { MarketStore } from "./store.ts";
import { deleteUniverseRule, importMetadataRule, removeMembersRule } from "./metadata-rules.ts";
import { catalogueRule, universeDetailRule } from "./universe-catalogue.ts";
import { knownSymbolsRule, universeRule } from "./universes.ts";

/** How long a PostgreSQL data version read is trusted before it is read again. */
export const VERSION_TTL_MS = 1000;

export interface MarketStoreOptions {
  /** 0: read the version every call (SQLite); PostgreSQL defaults to VERSION_TTL_MS. */
  versionTtlMs?: number;
  /** The bound of the event loop's series cache (series-cache.ts). */
  seriesCacheBytes?: number;
}

/** The event loop's series cache when none is configured: the default of --series-cache-mb. */
export const DEFAULT_SERIES_CACHE_BYTES = 64 * 2 ** 20;

export function marketStore(port: MarketPort, opts: MarketStoreOptions = {}): MarketStore {
  const ttl = opts.versionTtlMs ?? (port.kind === "postgres" ? VERSION_TTL_MS : 0);
  let version: { value: number; at: number } | null = null;
  let reading: Promise<number> | null = null;
  const seen = (value: number) => {
    // Never step back: a bump seen through this instance may be newer than a read in flight.
    version = { value: Math.max(value, version?.value ?? 0), at: performance.now() };
    return version.value;
  };
  const dataVersion = async (): Promise<number> => {
    if (ttl === 0) return port.dataVersion();
    if (version && performance.now() - version.at < ttl) return version.value;
    reading ??= Promise.resolve(port.dataVersion())
      .then(seen)
      .finally(() => (reading = null));
    return reading;
  };
  const writer: MarketPort = { ...port, bumped: (v) => void seen(v) };
  const loader = new SeriesLoader(port, new SeriesCache(opts.seriesCacheBytes ?? DEFAULT_SERIES_CACHE_BYTES));

  return {
    kind: port.kind,
    dataVersion,
    listUniverses: async () => port.universeNames(),
    getUniverse: async (name) => run(universeRule(port, name)),
    catalogue: async (v) => run(catalogueRule(port, v)),
    universeDetail: async (name, v) => run(universeDetailRule(port, name, v)),
    symbolMetadata: async (symbols) => port.metadata(symbols),
    importMetadata: async (rows, now) => run(importMetadataRule(writer, rows, now)),
    removeMembers: async (name, symbols) => run(removeMembersRule(writer, name, symbols)),
    deleteUniverse: async (name, purge) => run(deleteUniverseRule(writer, name, purge)),
    knownSymbols: async () => run(knownSymbolsRule(port)),
    storedIntervals: async () => storedBySymbol(await port.storedPairs()),
    barCoverage: (v) => readCoverage(port, v),
    loadSeries: async (symbols, interval) => run(loader.wholeRule(symbols, interval)),
    loadPlanned: async (symbols, interval, plan) => run(loader.planRule(symbols, interval, plan)),
    seriesCacheBytes: () => loader.cache.bytes(),
    limitSeriesCache: (bytes) => loader.cache.setBound(bytes),
    threadPath: port.threadPath,
    importCsvFiles: async (paths, o) => run(importRule(writer, fileReadables(paths), o)),
    importCsvSources: async (sources, o) => run(importRule(writer, textReadables(sources), o)),
    loadSample: async (clock = systemClock) => run(loadSampleRule(writer, clock)),
  };
}
