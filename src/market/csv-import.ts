/**
 * Importing bar CSVs into the database: each file is validated whole, then written in its own
 * transaction together with the universe extension and a data-version bump, so a bad file
 * leaves no trace and a good one is never half-written.
 */
import { readFileSync } from "node:fs";
import { type Clock, systemClock } from "../clock.ts";
import { INTERVALS, type Interval } from "../engine/types.ts";
import { BarWriter } from "./bar-writer.ts";
import { parseBarsCsv } from "./csv-bars.ts";
import { bumpDataVersion, getDataVersion } from "./data-version.ts";
import { rawDb, type DbHandle } from "./db-handle.ts";
import { isInterval } from "./intervals.ts";
import { isValidUniverseName } from "./symbols.ts";
import { extendUniverse, getUniverse } from "./universes.ts";

/** A problem with the import as a whole (bad universe or interval), not with one file. */
export class ImportError extends Error {
  override name = "ImportError";
}

export interface ImportOptions {
  universe: string;
  /** Interval of the bars in every file. Default `1d`. */
  interval?: Interval | string;
  /** Offset (minutes east of UTC) for timestamps without one, e.g. plain dates. Default 0. */
  defaultOffsetMin?: number;
  clock?: Clock;
}

export interface FileResult {
  file: string;
  ok: boolean;
  /** Symbols in the file, first-appearance order (empty when rejected). */
  symbols: string[];
  rows: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** `file:line: reason` messages; empty when ok. */
  errors: string[];
}

export interface ImportSummary {
  universe: string;
  interval: Interval;
  files: FileResult[];
  filesImported: number;
  filesRejected: number;
  /** Distinct symbols written, in order. */
  symbols: string[];
  /** Symbols newly appended to the universe. */
  appended: string[];
  rows: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Every file's errors, in file order. */
  errors: string[];
  dataVersion: number;
}

/** A CSV to import: its name (used in messages and, for per-symbol files, as the symbol) and content. */
export interface CsvSource {
  file: string;
  text: string;
}

/** Reads and imports CSV files in the given order. An unreadable file is reported like a bad one. */
export function importCsvFiles(h: DbHandle, paths: readonly string[], opts: ImportOptions): ImportSummary {
  const sources: (CsvSource | { file: string; error: string })[] = paths.map((file) => {
    try {
      return { file, text: readFileSync(file, "utf8") };
    } catch (err) {
      const code = (err as { code?: string }).code;
      const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : (err as Error).message;
      return { file, error: `${file}: cannot read: ${why}` };
    }
  });
  return importSources(h, sources, opts);
}

/** Imports CSV contents already in memory, in the given order. */
export function importCsvSources(h: DbHandle, sources: readonly CsvSource[], opts: ImportOptions): ImportSummary {
  return importSources(h, sources, opts);
}

function importSources(
  h: DbHandle,
  sources: readonly (CsvSource | { file: string; error: string })[],
  opts: ImportOptions,
): ImportSummary {
  const db = rawDb(h);
  const interval = opts.interval ?? "1d";
  if (!isInterval(interval)) {
    throw new ImportError(`interval must be one of ${INTERVALS.join(" ")}, got '${interval}'`);
  }
  if (!isValidUniverseName(opts.universe)) {
    throw new ImportError(`universe name must be 1-64 characters of A-Z a-z 0-9 . _ -, got '${opts.universe}'`);
  }
  if (getUniverse(db, opts.universe)?.source === "synthetic") {
    throw new ImportError(`universe '${opts.universe}' is the synthetic sample; import into a universe of another name`);
  }
  const clock = opts.clock ?? systemClock;
  const writer = new BarWriter(db);
  const summary: ImportSummary = {
    universe: opts.universe, interval, files: [], filesImported: 0, filesRejected: 0, symbols: [], appended: [],
    rows: 0, inserted: 0, updated: 0, unchanged: 0, errors: [], dataVersion: 0,
  };
  const symbolsSeen = new Set<string>();
  for (const src of sources) {
    const result: FileResult = { file: src.file, ok: false, symbols: [], rows: 0, inserted: 0, updated: 0, unchanged: 0, errors: [] };
    summary.files.push(result);
    const parsed = "error" in src ? { ok: false as const, errors: [src.error] } : parseBarsCsv(src.file, src.text, opts);
    if (!parsed.ok) {
      result.errors = parsed.errors;
      summary.filesRejected++;
      summary.errors.push(...parsed.errors);
      continue;
    }
    const write = db.transaction(() => {
      for (const symbol of parsed.symbols) {
        const c = writer.write(symbol, interval, parsed.bars.get(symbol)!);
        result.inserted += c.inserted;
        result.updated += c.updated;
        result.unchanged += c.unchanged;
      }
      summary.appended.push(...extendUniverse(db, opts.universe, parsed.symbols, "imported", clock.now()));
      bumpDataVersion(db);
    });
    write.immediate();
    result.ok = true;
    result.symbols = parsed.symbols;
    result.rows = parsed.rows;
    summary.filesImported++;
    summary.rows += result.rows;
    summary.inserted += result.inserted;
    summary.updated += result.updated;
    summary.unchanged += result.unchanged;
    for (const s of parsed.symbols) {
      if (!symbolsSeen.has(s)) {
        symbolsSeen.add(s);
        summary.symbols.push(s);
      }
    }
  }
  summary.dataVersion = getDataVersion(db);
  return summary;
}
