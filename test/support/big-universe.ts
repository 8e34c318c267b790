/**
 * A generated universe of any size written into a database file, as an import would leave it: the
 * heavy path's tests and benches need universes far larger than the 50-symbol sample (issue #20's
 * 500 symbols × 1,300 days). Daily bars on weekdays, a seeded one-factor model (random-returns.ts).
 */
import { openDatabase } from "../../db/sqlite/open.ts";
import { BulkInserter } from "../../src/market/bar-writer.ts";
import type { Bar } from "../../src/market/bar.ts";
import { bumpDataVersion } from "../../src/market/data-version.ts";
import { extendUniverse } from "../../src/market/universes.ts";
import { factorReturns } from "./engine/random-returns.ts";

const DAY_MS = 86_400_000;

/** Weekdays from 2020-01-01 on, `days` of them, as UTC midnights. */
function weekdays(days: number): number[] {
  const out: number[] = [];
  for (let t = Date.UTC(2020, 0, 1); out.length < days; t += DAY_MS) {
    const dow = new Date(t).getUTCDay();
    if (dow !== 0 && dow !== 6) out.push(t);
  }
  return out;
}

/** Writes universe `name` of `symbols` symbols (B0000, B0001, …) with `days` daily bars each; returns the last date. */
export function writeBigUniverse(path: string, name: string, symbols: number, days: number, seed = 7): string {
  const opened = openDatabase(path);
  const db = opened.sqlite;
  const dates = weekdays(days);
  const returns = factorReturns(symbols, days, seed);
  const names = Array.from({ length: symbols }, (_, i) => `B${String(i).padStart(4, "0")}`);
  db.transaction(() => {
    const inserter = new BulkInserter(db);
    names.forEach((symbol, i) => {
      let close = 100;
      const bars: Bar[] = dates.map((ts, k) => {
        close *= Math.exp(returns[i]![k]!);
        return { ts, offsetMin: 0, open: close, high: close, low: close, close, volume: 1000 };
      });
      inserter.insert(symbol, "1d", bars);
    });
    extendUniverse(db, name, names, "imported", Date.UTC(2026, 0, 1));
    bumpDataVersion(db);
  }).immediate();
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
  return new Date(dates[dates.length - 1]!).toISOString().slice(0, 10);
}
