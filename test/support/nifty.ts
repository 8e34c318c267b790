/**
 * The one place that knows where the real NIFTY-50 daily CSVs are. They are not ours to
 * redistribute, so the repo never holds them: tests that compare against them (the golden
 * fixtures were computed from them) read them from `GRAPH_STATS_NIFTY_DIR`, else from
 * `../shared/data/nifty50-daily` beside the repo, and are skipped when neither exists.
 */
import { describe, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { SeriesInput } from "../../src/engine/types.ts";

export const NIFTY_ENV = "GRAPH_STATS_NIFTY_DIR";
const REPO_ROOT = resolve(import.meta.dir, "../..");

/**
 * The data folder, or null when there is none. A set `GRAPH_STATS_NIFTY_DIR` that is not a
 * folder throws: the caller asked for real data, and silently skipping would hide the typo.
 */
export function resolveNiftyDir(env: Record<string, string | undefined> = process.env, repoRoot = REPO_ROOT): string | null {
  const fromEnv = env[NIFTY_ENV];
  if (fromEnv) {
    const dir = resolve(fromEnv);
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw new Error(`${NIFTY_ENV}=${fromEnv} is not a folder; point it at the NIFTY-50 daily CSVs or unset it`);
    return dir;
  }
  const beside = resolve(repoRoot, "../shared/data/nifty50-daily");
  return existsSync(beside) ? beside : null;
}

export const NIFTY_DIR: string | null = resolveNiftyDir();
export const niftyAvailable = NIFTY_DIR !== null;
export const NIFTY_MISSING = `NIFTY-50 data not found: set ${NIFTY_ENV} or place shared/data/nifty50-daily beside the repo`;

/** The folder; throws the skip reason when it is missing (call it only inside `describeNifty`). */
export function niftyDir(): string {
  if (NIFTY_DIR === null) throw new Error(NIFTY_MISSING);
  return NIFTY_DIR;
}

/** How many groups `describeNifty` skipped in this run; `nifty-report.ts` prints it once. */
export const niftySkips = { groups: 0 };

/**
 * A describe block that needs the real data. Without it the body is not even run (it usually
 * loads the data while collecting tests); one skipped placeholder test keeps the group visible.
 */
export function describeNifty(name: string, fn: () => void): void {
  if (niftyAvailable) {
    describe(name, fn);
    return;
  }
  niftySkips.groups++;
  describe(name, () => test.skip("needs the NIFTY-50 data", () => {}));
}

/** The CSV file paths in alphabetical file-stem order. */
export function niftyFiles(): string[] {
  return niftySymbols().map((s) => join(niftyDir(), `${s}.csv`));
}

/** All symbols of the data set, in code-point order of the file stems (like Python's sorted). */
export function niftySymbols(): string[] {
  return readdirSync(niftyDir())
    .filter((f) => f.endsWith(".csv"))
    .map((f) => f.slice(0, -4))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** `2020-10-01 00:00:00+05:30` → `2020-10-01T00:00:00+05:30`. */
function label(ts: string): string {
  return ts.length > 10 ? `${ts.slice(0, 10)}T${ts.slice(11)}` : `${ts}T00:00:00+05:30`;
}

const parsed = new Map<string, ReadonlyMap<string, number>>();

/** label → close of one symbol, parsed once per run. */
function readCloses(symbol: string): ReadonlyMap<string, number> {
  const hit = parsed.get(symbol);
  if (hit) return hit;
  const lines = readFileSync(join(niftyDir(), `${symbol}.csv`), "utf8").split(/\r?\n/);
  const header = lines[0].split(",");
  const tsCol = header.indexOf("timestamp");
  const closeCol = header.indexOf("close");
  const out = new Map<string, number>();
  for (const line of lines.slice(1)) {
    if (line.trim() === "") continue;
    const cells = line.split(",");
    out.set(label(cells[tsCol]), Number(cells[closeCol]));
  }
  parsed.set(symbol, out);
  return out;
}

/**
 * The given symbols (default: all, alphabetical) as the engine's aligned input, the way the
 * market layer would: calendar = sorted union of their bar labels, NaN where a symbol has no bar.
 */
export function loadNifty(symbols: string[] = niftySymbols()): SeriesInput {
  const bySymbol = symbols.map(readCloses);
  const labels = [...new Set(bySymbol.flatMap((m) => [...m.keys()]))].sort();
  const closes = bySymbol.map((m) => Float64Array.from(labels, (l) => m.get(l) ?? NaN));
  return { symbols, labels, closes };
}
