/**
 * Test and benchmark helper (not used by the service): reads the real NIFTY-50 daily CSVs
 * from the shared data folder into the engine's aligned `SeriesInput`, the way the market
 * layer would (calendar = sorted union of the symbols' bar labels; NaN where a symbol has
 * no bar).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SeriesInput } from "./types.ts";

export const NIFTY_DIR = join(import.meta.dir, "../../../shared/data/nifty50-daily");

/** All symbols of the data set, in alphabetical file-stem order (code-point order, like Python's sorted). */
export function niftySymbols(): string[] {
  return readdirSync(NIFTY_DIR)
    .filter((f) => f.endsWith(".csv"))
    .map((f) => f.slice(0, -4))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** `2020-10-01 00:00:00+05:30` → `2020-10-01T00:00:00+05:30`. */
function label(ts: string): string {
  return ts.length > 10 ? `${ts.slice(0, 10)}T${ts.slice(11)}` : `${ts}T00:00:00+05:30`;
}

function readCloses(symbol: string): Map<string, number> {
  const lines = readFileSync(join(NIFTY_DIR, `${symbol}.csv`), "utf8").split(/\r?\n/);
  const header = lines[0].split(",");
  const tsCol = header.indexOf("timestamp");
  const closeCol = header.indexOf("close");
  const out = new Map<string, number>();
  for (const line of lines.slice(1)) {
    if (line.trim() === "") continue;
    const cells = line.split(",");
    out.set(label(cells[tsCol]), Number(cells[closeCol]));
  }
  return out;
}

/** Loads the given symbols (default: all, alphabetical) as aligned closes. */
export function loadNifty(symbols: string[] = niftySymbols()): SeriesInput {
  const bySymbol = symbols.map(readCloses);
  const labels = [...new Set(bySymbol.flatMap((m) => [...m.keys()]))].sort();
  const closes = bySymbol.map((m) => Float64Array.from(labels, (l) => m.get(l) ?? NaN));
  return { symbols, labels, closes };
}

/** Builds a SeriesInput from a fixture's labels and per-symbol closes (null = no bar). */
export function seriesFromFixture(
  labels: string[],
  closes: Record<string, (number | null)[]>,
  symbols: string[] = Object.keys(closes),
): SeriesInput {
  return {
    symbols,
    labels,
    closes: symbols.map((s) => Float64Array.from(closes[s], (v) => (v === null ? NaN : v))),
  };
}
