/** The market data layer: bars, import, universes, resampling, series loading and the synthetic sample. */
export type { Bar } from "./bar.ts";
export type { DbHandle } from "./db-handle.ts";
export { getDataVersion, bumpDataVersion } from "./data-version.ts";
export { ImportError } from "./csv-import.ts";
export { importCsvFiles, importCsvSources } from "./import-rules.ts";
export type { CsvSource, FileResult, ImportOptions, ImportSummary } from "./csv-import.ts";
export { symbolFromFileName, REQUIRED_COLUMNS } from "./csv-bars.ts";
export { listUniverses, getUniverse, knownSymbols, extendUniverse } from "./universes.ts";
export type { Universe, UniverseSource } from "./universes.ts";
export { INTERVAL_MS, isInterval, bucketStart, divides, chooseSourceInterval, servingIntervals } from "./intervals.ts";
export { resampleBars } from "./resample.ts";
export { loadSeries } from "./series-loader.ts";
export type { LoadedSeries } from "./series.ts";
export { parseTimestamp, formatLocal, formatOffset } from "./timestamps.ts";
export { SYMBOL_PATTERN, UNIVERSE_PATTERN, isValidSymbol, isValidUniverseName } from "./symbols.ts";
export {
  generateSample,
  sampleTradingDays,
  SAMPLE_UNIVERSE,
  SAMPLE_END_DATE,
  SAMPLE_START_DATE,
  SAMPLE_OFFSET_MIN,
  SAMPLE_MINUTE_DAYS,
  SAMPLE_GENERATOR_VERSION,
} from "./sample-generator.ts";
export type { Sample, SampleSeries } from "./sample-generator.ts";
export { SAMPLE_SECTORS, SAMPLE_LATE_LISTING } from "./sample-symbols.ts";
export { loadSample } from "./load-sample.ts";
export type { LoadSampleResult } from "./sample-policy.ts";
export { sampleSeriesInput } from "./sample-series.ts";
