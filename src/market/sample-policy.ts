/**
 * The synthetic sample's rules, written once for both databases: refused when `sample` holds
 * imported data; a no-op when this generator version is loaded, re-checked under the market write
 * lock (instances starting together load it once); after a generator change the old sample bars
 * are replaced. Each database supplies only its statements (load-sample.ts, pg/pg-sample.ts).
 *
 * The rules are a generator over the port's answers, so they run synchronously on SQLite (its
 * transaction takes no promise, and loadSample stays synchronous) and as a promise on PostgreSQL.
 */
import type { Clock } from "../clock.ts";
import type { Maybe } from "../metering/meter-port.ts";
import { generateSample, SAMPLE_GENERATOR_VERSION, SAMPLE_UNIVERSE, SAMPLE_VERSION_KEY, type SampleSeries } from "./sample-generator.ts";
import type { Universe, UniverseSource } from "./universes.ts";

export interface LoadSampleResult {
  /** False when this generator version of the sample was already there (nothing written). */
  loaded: boolean;
  universe: string;
  symbols: number;
  dailyBars: number;
  minuteBars: number;
  dataVersion: number;
}

/** Statements on a connection or inside the write transaction. */
export interface SampleStatements {
  setting(key: string): Maybe<string | null>;
}

/** Statements inside the transaction that holds the market write lock. */
export interface SampleWrites extends SampleStatements {
  /** Deletes every bar of the series' symbols, then inserts each series' 1d and 1m bars. */
  replaceBars(series: readonly SampleSeries[]): Maybe<void>;
  /** Creates the universe if missing and appends the symbols it lacks, in order. */
  extendUniverse(name: string, symbols: readonly string[], source: UniverseSource, now: number): Maybe<unknown>;
  setSetting(key: string, value: string): Maybe<void>;
  /** Returns the new data version. */
  bumpDataVersion(): Maybe<number>;
}

export interface SamplePort extends SampleStatements {
  universe(name: string): Maybe<Universe | null>;
  dataVersion(): Maybe<number>;
  /** Runs `write` in one transaction holding the market write lock; returns its answer. */
  locked<T>(write: (tx: SampleWrites) => Maybe<T>): Maybe<T>;
}

type Rule<T> = Generator<unknown, T, unknown>;

/** The port's answer inside a rule: `yield* answer(port.x())`. */
function* answer<T>(x: Maybe<T>): Generator<Maybe<T>, T, unknown> {
  return (yield x) as T;
}

/** Runs a rule: synchronously while the port answers with values, as a promise from its first promise on. */
export function run<T>(rule: Rule<T>): Maybe<T> {
  let step = rule.next();
  while (!step.done) {
    if (step.value instanceof Promise) return finish(rule, step.value);
    step = rule.next(step.value);
  }
  return step.value;
}

// A rejection leaves the rule suspended: the rules hold nothing to release.
async function finish<T>(rule: Rule<T>, pending: Promise<unknown>): Promise<T> {
  let step = rule.next(await pending);
  while (!step.done) step = rule.next(await step.value);
  return step.value;
}

/**
 * Loads the synthetic `sample` universe (1d and 1m bars). A no-op when the same generator
 * version is already loaded; after a generator change the old sample bars are replaced.
 * Throws when a universe named `sample` holds imported data.
 */
export function* loadSampleRule(port: SamplePort, clock: Clock): Rule<LoadSampleResult> {
  const existing = yield* answer(port.universe(SAMPLE_UNIVERSE));
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
function* writeSample(tx: SampleWrites, series: readonly SampleSeries[], symbols: readonly string[], clock: Clock): Rule<number | null> {
  if (Number(yield* answer(tx.setting(SAMPLE_VERSION_KEY))) === SAMPLE_GENERATOR_VERSION) return null;
  yield* answer(tx.replaceBars(series));
  yield* answer(tx.extendUniverse(SAMPLE_UNIVERSE, symbols, "synthetic", clock.now()));
  yield* answer(tx.setSetting(SAMPLE_VERSION_KEY, String(SAMPLE_GENERATOR_VERSION)));
  return yield* answer(tx.bumpDataVersion());
}
