/**
 * The synthetic sample in PostgreSQL, with load-sample.ts's rules: idempotent per generator
 * version (re-checked under the market lock, so instances starting together load it once), old
 * sample bars replaced after a generator change, refused when `sample` holds imported data.
 */
import type { SQL } from "bun";
import { systemClock, type Clock } from "../../clock.ts";
import type { Interval } from "../../engine/types.ts";
import type { Bar } from "../bar.ts";
import { emptyColumns, pushBar } from "../bar-writer.ts";
import type { LoadSampleResult } from "../load-sample.ts";
import { generateSample, SAMPLE_GENERATOR_VERSION, SAMPLE_UNIVERSE, SAMPLE_VERSION_KEY as VERSION_KEY } from "../sample-generator.ts";
import type { Universe } from "../universes.ts";
import { textArray } from "./pg-arrays.ts";
import { bumpDataVersionPg, extendUniversePg, insertBars, lockMarket, PG_BATCH } from "./pg-writes.ts";

export interface PgSampleDeps {
  sql: SQL;
  getUniverse(name: string): Promise<Universe | null>;
  dataVersion(): Promise<number>;
  bumped(version: number): void;
}

export async function loadSamplePg(deps: PgSampleDeps, clock: Clock = systemClock): Promise<LoadSampleResult> {
  const existing = await deps.getUniverse(SAMPLE_UNIVERSE);
  if (existing && existing.source !== "synthetic") {
    throw new Error(`universe '${SAMPLE_UNIVERSE}' already holds imported data; the synthetic sample was not loaded`);
  }
  const unchanged = async (symbols: number): Promise<LoadSampleResult> => ({
    loaded: false,
    universe: SAMPLE_UNIVERSE,
    symbols,
    dailyBars: 0,
    minuteBars: 0,
    dataVersion: await deps.dataVersion(),
  });
  const current = async (q: SQL) => Number((await q`SELECT value FROM settings WHERE key = ${VERSION_KEY}`)[0]?.value);
  if (existing && (await current(deps.sql)) === SAMPLE_GENERATOR_VERSION) return unchanged(existing.symbols.length);
  const sample = generateSample();
  let dailyBars = 0;
  let minuteBars = 0;
  const version = await deps.sql.begin(async (tx) => {
    await tx`SET LOCAL statement_timeout = 0`;
    await lockMarket(tx);
    if ((await current(tx)) === SAMPLE_GENERATOR_VERSION) return null;
    await tx`DELETE FROM bars WHERE symbol = ANY(${textArray(sample.symbols)}::text[])`;
    for (const [interval, pick] of [
      ["1d", (s) => s.daily],
      ["1m", (s) => s.minute],
    ] as [Interval, (s: (typeof sample.series)[0]) => Bar[]][]) {
      let batch = emptyColumns();
      for (const s of sample.series) {
        for (const b of pick(s)) {
          pushBar(batch, s.symbol, b);
          if (batch.ts.length === PG_BATCH) {
            await insertBars(tx, interval, batch);
            batch = emptyColumns();
          }
        }
        if (interval === "1d") dailyBars += s.daily.length;
        else minuteBars += s.minute.length;
      }
      if (batch.ts.length > 0) await insertBars(tx, interval, batch);
    }
    await extendUniversePg(tx, SAMPLE_UNIVERSE, sample.symbols, "synthetic", clock.now());
    await tx`INSERT INTO settings (key, value) VALUES (${VERSION_KEY}, ${String(SAMPLE_GENERATOR_VERSION)})
      ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
    return bumpDataVersionPg(tx);
  });
  if (version === null) return unchanged(sample.symbols.length);
  deps.bumped(version);
  return { loaded: true, universe: SAMPLE_UNIVERSE, symbols: sample.symbols.length, dailyBars, minuteBars, dataVersion: version };
}

/** True when the database holds no market data at all (a fresh one: the sample goes in). */
export async function marketIsEmpty(sql: SQL): Promise<boolean> {
  const [r] = await sql`SELECT NOT EXISTS (SELECT 1 FROM universes) AND NOT EXISTS (SELECT 1 FROM bars) AS empty`;
  return r.empty === true;
}
