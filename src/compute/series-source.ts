/**
 * Where a computation's series come from (compute-pool.ts): given as they are, loaded from the
 * database file by a request's load plan, or the synthetic sample generated in memory (the demo).
 */
import { openDatabase } from "../../db/sqlite/open.ts";
import type { ChartParams, SeriesInput } from "../engine/types.ts";
import { run, synchronously } from "../market/rule.ts";
import { sampleSeriesInput } from "../market/sample-series.ts";
import { SeriesCache } from "../market/series-cache.ts";
import { type LoadPlan, SeriesLoader } from "../market/series-loader.ts";
import { portOf } from "../market/sqlite-port.ts";

/**
 * What to compute on: the series themselves, the symbols to load from a database file (the buckets
 * the precheck planned — every stored bar without a plan — and the loading thread's share of the
 * series cache bound), or the synthetic
 * sample generated in memory (the demo; generating it takes ~100 ms, so the thread does it).
 */
export type SeriesSource =
  | { input: SeriesInput }
  | { db: string; symbols: string[]; plan?: LoadPlan; cacheBytes?: number }
  | { sample: true };

let sample: SeriesInput | null = null;

/**
 * The series of a source. `loaderFor` gives the loader of a database source (the compute thread
 * passes its lasting one, whose cache then serves later requests); without it a connection is
 * opened for this call only (the rare fallback when no thread runs).
 */
export function inputOf(
  source: SeriesSource,
  params: ChartParams,
  loaderFor?: (path: string, cacheBytes: number) => SeriesLoader,
): SeriesInput {
  if ("input" in source) return source.input;
  if ("sample" in source) return (sample ??= sampleSeriesInput());
  const { symbols, plan } = source;
  const load = (l: SeriesLoader) =>
    plan ? synchronously(run(l.planRule(symbols, params.interval, plan))) : synchronously(run(l.wholeRule(symbols, params.interval))).input;
  if (loaderFor) return load(loaderFor(source.db, source.cacheBytes ?? 0));
  const { sqlite } = openDatabase(source.db, { attach: true, readOnly: "file" });
  try {
    return load(new SeriesLoader(portOf(sqlite), new SeriesCache(0)));
  } finally {
    sqlite.close();
  }
}
