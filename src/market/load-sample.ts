/** The synthetic sample on SQLite: sample-policy.ts's rules over this file's statements, synchronously. */
import type { Database } from "bun:sqlite";
import { type Clock, systemClock } from "../clock.ts";
import { BulkInserter } from "./bar-writer.ts";
import { bumpDataVersion, getDataVersion } from "./data-version.ts";
import { rawDb, type DbHandle } from "./db-handle.ts";
import { type LoadSampleResult, loadSampleRule, run, type SamplePort, type SampleWrites } from "./sample-policy.ts";
import { extendUniverse, getUniverse } from "./universes.ts";

/** One transaction (BEGIN IMMEDIATE: the write lock), idempotent per generator version. */
export function loadSample(h: DbHandle, clock: Clock = systemClock): LoadSampleResult {
  return synchronously(run(loadSampleRule(sqliteSamplePort(rawDb(h)), clock)));
}

function synchronously<T>(x: T | Promise<T>): T {
  if (x instanceof Promise) throw new Error("a SQLite statement answered with a promise");
  return x;
}

function sqliteSamplePort(db: Database): SamplePort {
  const setting = (key: string) =>
    db.query<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?").get(key)?.value ?? null;
  const writes: SampleWrites = {
    setting,
    replaceBars(series) {
      const del = db.prepare("DELETE FROM bars WHERE symbol = ?");
      const inserter = new BulkInserter(db);
      for (const s of series) {
        del.run(s.symbol);
        inserter.insert(s.symbol, "1d", s.daily);
        inserter.insert(s.symbol, "1m", s.minute);
      }
    },
    extendUniverse: (name, symbols, source, now) => extendUniverse(db, name, symbols, source, now),
    setSetting(key, value) {
      db.query("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
    },
    bumpDataVersion: () => bumpDataVersion(db),
  };
  return {
    setting,
    universe: (name) => getUniverse(db, name),
    dataVersion: () => getDataVersion(db),
    locked: (write) => db.transaction(() => synchronously(write(writes))).immediate(),
  };
}
