/** Shared fixtures for the market tests: real SQLite files in a temp dir (the NIFTY data: test/support/nifty.ts). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type OpenedDb } from "../../db/sqlite/open.ts";
import type { Bar } from "../../src/market/bar.ts";

/** A fresh database file in its own temp dir; `cleanup` closes and removes it. */
export function tempDb(): OpenedDb & { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "graph-stats-market-"));
  const opened = openDatabase(join(dir, "test.sqlite"));
  return {
    ...opened,
    dir,
    cleanup: () => {
      opened.sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Number of bars stored for a symbol at an interval. */
export function countBars(opened: OpenedDb, symbol: string, interval = "1d"): number {
  return opened.sqlite
    .query<{ n: number }, [string, string]>("SELECT COUNT(*) AS n FROM bars WHERE symbol = ? AND interval = ?")
    .get(symbol, interval)!.n;
}

/** A symbol's stored bars at an interval, in time order, as the importer wrote them. */
export function storedBars(opened: OpenedDb, symbol: string, interval = "1d"): Bar[] {
  return opened.sqlite
    .query<Bar, [string, string]>(
      "SELECT ts, offset_min AS offsetMin, open, high, low, close, volume FROM bars WHERE symbol = ? AND interval = ? ORDER BY ts",
    )
    .all(symbol, interval);
}
