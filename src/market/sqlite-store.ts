/**
 * The SQLite MarketStore: today's synchronous market functions behind the async interface,
 * behaviour unchanged. Compute threads keep loading series from the file themselves
 * (threadSource), so the hot path is what it was.
 */
import type { Database } from "bun:sqlite";
import { sqliteCoverage, storedIntervals } from "./bar-coverage.ts";
import { importCsvFiles, importCsvSources } from "./csv-import.ts";
import { getDataVersion } from "./data-version.ts";
import { loadSample } from "./load-sample.ts";
import { loadSeries } from "./series.ts";
import type { MarketStore } from "./store.ts";
import { getUniverse, knownSymbols, listUniverses } from "./universes.ts";

export function sqliteMarketStore(sqlite: Database, path: string): MarketStore {
  return {
    kind: "sqlite",
    dataVersion: async () => getDataVersion(sqlite),
    listUniverses: async () => listUniverses(sqlite),
    getUniverse: async (name) => getUniverse(sqlite, name),
    knownSymbols: async () => knownSymbols(sqlite),
    storedIntervals: async () => storedIntervals(sqlite),
    barCoverage: async (version) => sqliteCoverage(sqlite, version),
    loadSeries: async (symbols, interval) => loadSeries(sqlite, symbols, interval),
    threadSource: (symbols) => (path === ":memory:" || path === "" ? null : { db: path, symbols }),
    importCsvFiles: async (paths, opts) => importCsvFiles(sqlite, paths, opts),
    importCsvSources: async (sources, opts) => importCsvSources(sqlite, sources, opts),
    loadSample: async (clock) => loadSample(sqlite, clock),
  };
}
