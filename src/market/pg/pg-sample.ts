/** The synthetic sample in PostgreSQL: sample-policy.ts's rules over this file's statements. */
import type { SQL } from "bun";
import { systemClock, type Clock } from "../../clock.ts";
import type { Interval } from "../../engine/types.ts";
import type { Bar } from "../bar.ts";
import { emptyColumns, pushBar } from "../bar-writer.ts";
import type { SampleSeries } from "../sample-generator.ts";
import { type LoadSampleResult, loadSampleRule, run, type SamplePort, type SampleWrites } from "../sample-policy.ts";
import type { Universe } from "../universes.ts";
import { textArray } from "../../../db/pg/arrays.ts";
import { bumpDataVersionPg, extendUniversePg, insertBars, lockMarket, PG_BATCH } from "./pg-writes.ts";

export interface PgSampleDeps {
  sql: SQL;
  getUniverse(name: string): Promise<Universe | null>;
  dataVersion(): Promise<number>;
  bumped(version: number): void;
}

export async function loadSamplePg(deps: PgSampleDeps, clock: Clock = systemClock): Promise<LoadSampleResult> {
  const result = await run(loadSampleRule(pgSamplePort(deps), clock));
  if (result.loaded) deps.bumped(result.dataVersion);
  return result;
}

const settingOn = (q: SQL) => async (key: string) => ((await q`SELECT value FROM settings WHERE key = ${key}`)[0]?.value as string) ?? null;

function pgSamplePort(deps: PgSampleDeps): SamplePort {
  const writesOn = (tx: SQL): SampleWrites => ({
    setting: settingOn(tx),
    async replaceBars(series) {
      await tx`DELETE FROM bars WHERE symbol = ANY(${textArray(series.map((s) => s.symbol))}::text[])`;
      await insertSeries(tx, "1d", series, (s) => s.daily);
      await insertSeries(tx, "1m", series, (s) => s.minute);
    },
    extendUniverse: (name, symbols, source, now) => extendUniversePg(tx, name, symbols, source, now),
    async setSetting(key, value) {
      await tx`INSERT INTO settings (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
    },
    bumpDataVersion: () => bumpDataVersionPg(tx),
  });
  return {
    setting: settingOn(deps.sql),
    universe: deps.getUniverse,
    dataVersion: deps.dataVersion,
    locked: (write) =>
      deps.sql.begin(async (tx) => {
        // Waiting for another instance's load, and this one, may outlast the pool's statement timeout.
        await tx`SET LOCAL statement_timeout = 0`;
        await lockMarket(tx);
        return write(writesOn(tx));
      }),
  };
}

/** Every series' bars at `interval`, in batches of PG_BATCH across symbols. */
async function insertSeries(tx: SQL, interval: Interval, series: readonly SampleSeries[], pick: (s: SampleSeries) => Bar[]) {
  let batch = emptyColumns();
  for (const s of series) {
    for (const b of pick(s)) {
      pushBar(batch, s.symbol, b);
      if (batch.ts.length === PG_BATCH) {
        await insertBars(tx, interval, batch);
        batch = emptyColumns();
      }
    }
  }
  if (batch.ts.length > 0) await insertBars(tx, interval, batch);
}

/** True when the database holds no market data at all (a fresh one: the sample goes in). */
export async function marketIsEmpty(sql: SQL): Promise<boolean> {
  const [r] = await sql`SELECT NOT EXISTS (SELECT 1 FROM universes) AND NOT EXISTS (SELECT 1 FROM bars) AS empty`;
  return r.empty === true;
}
