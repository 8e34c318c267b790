/** Shared fixtures for the market tests: real SQLite files in a temp dir and the real NIFTY data. */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openDatabase, type OpenedDb } from "../../db/open.ts";

/** The real NIFTY-50 daily CSVs (../shared/data/nifty50-daily from the repo root). */
export const NIFTY_DIR = resolve(import.meta.dir, "../../../shared/data/nifty50-daily");

/** The NIFTY CSV paths in alphabetical file-stem order. */
export function niftyFiles(): string[] {
  return readdirSync(NIFTY_DIR)
    .filter((f) => f.endsWith(".csv"))
    .sort()
    .map((f) => join(NIFTY_DIR, f));
}

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
