/**
 * Where a computation's series come from (compute-pool.ts): given as they are, loaded
 * from the database file by symbol, or the synthetic sample generated in memory (the demo).
 */
import type { Database } from "bun:sqlite";
import { openDatabase } from "../../db/open.ts";
import type { ChartParams, SeriesInput } from "../engine/types.ts";
import { sampleSeriesInput } from "../market/sample-series.ts";
import { loadSeries } from "../market/series.ts";

/**
 * What to compute on: the series themselves, the symbols to load from a database file, or the
 * synthetic sample generated in memory (the demo; generating it takes ~100 ms, so the thread does it).
 */
export type SeriesSource = { input: SeriesInput } | { db: string; symbols: string[] } | { sample: true };

let sample: SeriesInput | null = null;

/**
 * The series of a source. `connection` reads a database source (the compute thread passes its
 * lasting one, whose series cache then serves repeated requests); without it a connection is
 * opened for this call only (the rare fallback when no thread runs).
 */
export function inputOf(source: SeriesSource, params: ChartParams, connection?: (path: string) => Database): SeriesInput {
  if ("input" in source) return source.input;
  if ("sample" in source) return (sample ??= sampleSeriesInput());
  if (connection) return loadSeries(connection(source.db), source.symbols, params.interval).input;
  const { sqlite } = openDatabase(source.db, { attach: true, readOnly: "file" });
  try {
    return loadSeries(sqlite, source.symbols, params.interval).input;
  } finally {
    sqlite.close();
  }
}
