/**
 * The synthetic sample's rules, written once for both databases: refused when `sample` holds
 * imported data; a no-op when this generator version is loaded, re-checked under the market write
 * lock (instances starting together load it once); after a generator change the old sample bars
 * are replaced. Each database supplies only its statements (market-port.ts).
 */
import type { Clock } from "../clock.ts";
import type { MarketPort, MarketWrites } from "./market-port.ts";
import { answer, type Rule, run } from "./rule.ts";
import { generateSample, SAMPLE_GENERATOR_VERSION, SAMPLE_UNIVERSE, SAMPLE_VERSION_KEY, type SampleSeries } from "./sample-generator.ts";
import { extendUniverseRule, universeRule } from "./universes.ts";

export interface LoadSampleResult {
  /** False when this generator version of the sample was already there (nothing written). */
  loaded: boolean;
  universe: string;
  symbols: number;
  dailyBars: number;
  minuteBars: number;
  dataVersion: number;
}

/**
 * Loads the synthetic `sample` universe (1d and 1m bars). A no-op when the same generator
 * version is already loaded; after a generator change the old sample bars are replaced.
 * Throws when a universe named `sample` holds imported data.
 */
export function* loadSampleRule(port: MarketPort, clock: Clock): Rule<LoadSampleResult> {
  const existing = yield* universeRule(port, SAMPLE_UNIVERSE);
  if (existing && existing.source !== "synthetic") {
    throw new Error(`universe '${SAMPLE_UNIVERSE}' already holds imported data; the synthetic sample was not loaded`);
  }
  function* unchanged(symbols: number): Rule<LoadSampleResult> {
    const dataVersion = yield* answer(port.dataVersion());
    return { loaded: false, universe: SAMPLE_UNIVERSE, symbols, dailyBars: 0, minuteBars: 0, dataVersion };
  }
  if (existing && Number(yield* answer(port.setting(SAMPLE_VERSION_KEY))) === SAMPLE_GENERATOR_VERSION) {
    return yield* unchanged(existing.symbols.length);
  }
  const sample = generateSample();
  const dataVersion = yield* answer(port.locked((tx) => run(writeSample(tx, sample.series, sample.symbols, clock))));
  if (dataVersion === null) return yield* unchanged(sample.symbols.length);
  port.bumped?.(dataVersion);
  const bars = (pick: (s: SampleSeries) => readonly unknown[]) => sample.series.reduce((n, s) => n + pick(s).length, 0);
  return {
    loaded: true,
    universe: SAMPLE_UNIVERSE,
    symbols: sample.symbols.length,
    dailyBars: bars((s) => s.daily),
    minuteBars: bars((s) => s.minute),
    dataVersion,
  };
}

/** Under the write lock; the new data version, or null when another process loaded this version since the first check. */
function* writeSample(tx: MarketWrites, series: readonly SampleSeries[], symbols: readonly string[], clock: Clock): Rule<number | null> {
  if (Number(yield* answer(tx.setting(SAMPLE_VERSION_KEY))) === SAMPLE_GENERATOR_VERSION) return null;
  yield* answer(tx.replaceBars(series));
  yield* extendUniverseRule(tx, SAMPLE_UNIVERSE, symbols, "synthetic", clock.now());
  yield* answer(tx.setSetting(SAMPLE_VERSION_KEY, String(SAMPLE_GENERATOR_VERSION)));
  return yield* answer(tx.bumpDataVersion());
}
