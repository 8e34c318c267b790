/**
 * Importing bar files (CSV, gzipped CSV, Parquet: bar-files.ts): the options, results and
 * summaries, and stageFile, which streams one file into a stage (memory stays flat however large it is) and checks it whole — every row,
 * duplicates, bar spacing against the interval. import-rules.ts writes the checked files, for
 * both databases; the functions here run it on a SQLite connection.
 */
import type { Clock } from "../clock.ts";
import { INTERVALS, type Interval } from "../engine/types.ts";
import { type FieldSink, type HeaderAnswer, type Readable, SourceError } from "./bar-files.ts";
import type { BarStage } from "./bar-writer.ts";
import { RowErrors } from "./row-errors.ts";
import { type Clash, clashReason } from "./offset-clashes.ts";
import { shownValue } from "./shown-value.ts";
import { BarRows, MAX_ERRORS, REQUIRED_COLUMNS, type ParseOptions } from "./csv-bars.ts";
import { CsvSyntaxError } from "./csv-records.ts";
import { spacingProblem } from "./csv-spacing.ts";
import { isInterval } from "./intervals.ts";
import { answer, type Rule } from "./rule.ts";
import { isValidUniverseName } from "./symbols.ts";

export { fileReadables, textReadables } from "./bar-files.ts";
export type { CsvSource, Readable } from "./bar-files.ts";

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
  /** Column names by field (`--map`), and which price is the close (`--price`). */
  map?: ParseOptions["map"];
  price?: ParseOptions["price"];
  /**
   * Replace stored bars of 1d or longer that fall on an imported bar's local date at another
   * offset (offset-clashes.ts); without it such an import is refused.
   */
  replace?: boolean;
  /** Called after each chunk of a file is read (about every MiB). */
  onProgress?: (p: ImportProgress) => void;
  clock?: Clock;
}

export interface ImportProgress {
  file: string;
  bytes: number;
  totalBytes: number;
  rows: number;
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
  /** Stored bars deleted because an imported one took their local date at another offset (--replace). */
  replaced: number;
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
  replaced: number;
  /** Every file's errors, in file order. */
  errors: string[];
  dataVersion: number;
}

/** Checks the options every store checks before touching any file. */
export function checkImportOptions(opts: ImportOptions): Interval {
  const interval = opts.interval ?? "1d";
  if (!isInterval(interval)) {
    throw new ImportError(`interval must be one of ${INTERVALS.join(" ")}, got '${interval}'`);
  }
  if (!isValidUniverseName(opts.universe)) {
    throw new ImportError(`universe name must be 1-64 characters of A-Z a-z 0-9 . _ -, got '${opts.universe}'`);
  }
  return interval;
}

export function syntheticRefusal(universe: string): ImportError {
  return new ImportError(`universe '${universe}' is the synthetic sample; import into a universe of another name`);
}

export function emptySummary(universe: string, interval: Interval): ImportSummary {
  return {
    universe,
    interval,
    files: [],
    filesImported: 0,
    filesRejected: 0,
    symbols: [],
    appended: [],
    rows: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    replaced: 0,
    errors: [],
    dataVersion: 0,
  };
}

/** A file's result before anything is known about it (every importer starts from this). */
export function emptyFileResult(file: string): FileResult & { appended: string[] } {
  return { file, ok: false, symbols: [], rows: 0, inserted: 0, updated: 0, unchanged: 0, replaced: 0, errors: [], appended: [] };
}

/** Adds one file's outcome to the summary (symbols in first-appearance order across files). */
export function addFile(summary: ImportSummary, result: FileResult & { appended: string[] }): void {
  summary.files.push(result);
  if (!result.ok) {
    summary.filesRejected++;
    summary.errors.push(...result.errors);
    return;
  }
  summary.filesImported++;
  summary.appended.push(...result.appended);
  summary.rows += result.rows;
  summary.inserted += result.inserted;
  summary.updated += result.updated;
  summary.unchanged += result.unchanged;
  summary.replaced += result.replaced;
  for (const s of result.symbols) if (!summary.symbols.includes(s)) summary.symbols.push(s);
}

/**
 * Streams one file into the stage and checks it whole: rows as they come (staging stops at the
 * first bad one, checking goes on to list up to MAX_ERRORS), then duplicates and bar spacing. A
 * rule: CSV is read synchronously, gzip and Parquet through the promise their reader answers.
 */
export function* stageFile(
  stage: BarStage,
  src: Readable,
  opts: ImportOptions & { interval: Interval },
): Rule<{ ok: true; symbols: string[]; rows: number } | { ok: false; errors: string[] }> {
  const { file, unit } = src;
  const errors = new RowErrors(file, MAX_ERRORS);
  const fail = (line: number, reason: string) => errors.add(line, reason);
  let rows: BarRows | string | undefined;
  let dataRows = 0;
  const symbols = new Set<string>();
  const sink: FieldSink = (record, line) => {
    if (rows === undefined) {
      rows = BarRows.fromHeader(file, record as readonly string[], line, opts);
      return;
    }
    if (typeof rows === "string") return;
    dataRows++;
    const row = rows.read(record);
    if (typeof row === "string") return fail(line, row);
    if (errors.count > 0) return;
    symbols.add(row.symbol);
    stage.add({ ...row, line });
  };
  const header = (): HeaderAnswer | null => (rows instanceof BarRows ? { col: rows.col, defaultOffsetMin: opts.defaultOffsetMin } : null);
  const progress = (bytes: number, totalBytes: number) => opts.onProgress?.({ file, bytes, totalBytes, rows: dataRows });
  try {
    const reading = src.read(sink, progress, header);
    if (reading instanceof Promise) yield* answer(reading);
  } catch (err) {
    if (err instanceof CsvSyntaxError) return { ok: false, errors: [`${file}:${err.line}: ${err.message}`] };
    if (err instanceof SourceError) return { ok: false, errors: [`${file}: ${err.message}`] };
    const code = (err as { code?: string }).code;
    if (code === undefined) throw err;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : (err as Error).message;
    return { ok: false, errors: [`${file}: cannot read: ${why}`] };
  }
  if (rows === undefined)
    return { ok: false, errors: [`${file}:1: empty file: expected a header row with at least ${REQUIRED_COLUMNS.join(",")}`] };
  if (typeof rows === "string") return { ok: false, errors: [rows] };
  if (dataRows === 0) return { ok: false, errors: [unit === "row" ? `${file}: no rows` : `${file}: no data rows after the header`] };
  const staged = stage.endLoad();
  if (errors.count === 0) {
    const long = rows.long;
    for (const d of stage.duplicates(MAX_ERRORS + 1)) {
      fail(d.line, `duplicate timestamp ${shownValue(d.rawTs)}${long ? ` for ${d.symbol}` : ""} (first at ${unit} ${d.first})`);
    }
    if (errors.count === 0) {
      for (const [symbol, gaps] of stage.gaps()) {
        const problem = spacingProblem(gaps, opts.interval, long ? symbol : undefined);
        if (problem) fail(problem.line, problem.reason);
      }
    }
  }
  if (errors.count > 0) return { ok: false, errors: errors.lines() };
  return { ok: true, symbols: [...symbols], rows: staged };
}

/** The refusal of a file whose dated bars clash with stored ones (at most MAX_ERRORS listed). */
export function clashErrors(file: string, clashes: Clash[], interval: Interval): string[] {
  const errors = new RowErrors(file, MAX_ERRORS);
  for (const c of clashes.slice(0, MAX_ERRORS)) errors.add(c.line, clashReason(c, interval));
  const lines = errors.lines();
  if (clashes.length > MAX_ERRORS) lines.push(`${file}: ... and more rows on dates stored at another offset`);
  return lines;
}
