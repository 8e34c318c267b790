/** Writing the synthetic sample universe into a database (one transaction, idempotent). */
import { type Clock, systemClock } from "../clock.ts";
import { BulkInserter } from "./bar-writer.ts";
import { bumpDataVersion, getDataVersion } from "./data-version.ts";
import { rawDb, type DbHandle } from "./db-handle.ts";
import { generateSample, SAMPLE_GENERATOR_VERSION, SAMPLE_UNIVERSE, SAMPLE_VERSION_KEY as VERSION_KEY } from "./sample-generator.ts";
import { extendUniverse, getUniverse } from "./universes.ts";

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
export function loadSample(h: DbHandle, clock: Clock = systemClock): LoadSampleResult {
  const db = rawDb(h);
  const existing = getUniverse(db, SAMPLE_UNIVERSE);
  if (existing && existing.source !== "synthetic") {
    throw new Error(`universe '${SAMPLE_UNIVERSE}' already holds imported data; the synthetic sample was not loaded`);
  }
  const stored = db.query<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?").get(VERSION_KEY);
  if (existing && stored && Number(stored.value) === SAMPLE_GENERATOR_VERSION) {
    return {
      loaded: false,
      universe: SAMPLE_UNIVERSE,
      symbols: existing.symbols.length,
      dailyBars: 0,
      minuteBars: 0,
      dataVersion: getDataVersion(db),
    };
  }
  const sample = generateSample();
  let dailyBars = 0;
  let minuteBars = 0;
  const write = db.transaction((): number | null => {
    // Re-checked under the write lock: another process may have loaded it since the check above.
    if (
      Number(db.query<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?").get(VERSION_KEY)?.value) ===
      SAMPLE_GENERATOR_VERSION
    ) {
      return null;
    }
    const del = db.prepare("DELETE FROM bars WHERE symbol = ?");
    const inserter = new BulkInserter(db);
    for (const s of sample.series) {
      del.run(s.symbol);
      inserter.insert(s.symbol, "1d", s.daily);
      inserter.insert(s.symbol, "1m", s.minute);
      dailyBars += s.daily.length;
      minuteBars += s.minute.length;
    }
    extendUniverse(db, SAMPLE_UNIVERSE, sample.symbols, "synthetic", clock.now());
    db.query("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(
      VERSION_KEY,
      String(SAMPLE_GENERATOR_VERSION),
    );
    return bumpDataVersion(db);
  });
  const dataVersion = write.immediate();
  if (dataVersion === null) {
    return {
      loaded: false,
      universe: SAMPLE_UNIVERSE,
      symbols: sample.symbols.length,
      dailyBars: 0,
      minuteBars: 0,
      dataVersion: getDataVersion(db),
    };
  }
  return { loaded: true, universe: SAMPLE_UNIVERSE, symbols: sample.symbols.length, dailyBars, minuteBars, dataVersion };
}
