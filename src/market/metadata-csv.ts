/**
 * Reads a metadata file for `import-metadata`: CSV with the columns symbol, name, sector and
 * industry (any order and case, extra columns ignored), one row per symbol. The bar imports' rules
 * for a hostile file hold: the streaming reader's line and record bounds, every bad row reported as
 * `file:line: reason` (the same reason once, with a count), values shown cut and escaped, and a
 * file with any bad row rejected whole — nothing of it is written.
 */
import { normaliseColumnName } from "./csv-columns.ts";
import { CsvSyntaxError, readCsvFile, readCsvText, type RecordSink } from "./csv-records.ts";
import type { SymbolMetadata } from "./market-port.ts";
import { RowErrors } from "./row-errors.ts";
import { shownColumns, shownValue } from "./shown-value.ts";
import { isValidSymbol } from "./symbols.ts";

export const METADATA_COLUMNS = ["symbol", "name", "sector", "industry"] as const;

/** Longest name, sector or industry kept: far above any real one, a bound on what a file can make every answer carry. */
export const MAX_VALUE_CHARS = 200;
/** Rows per file: ten times the largest index's members. */
export const MAX_ROWS = 100_000;
const MAX_LISTED = 20;
// C0 and C1 controls, DEL and the bidirectional marks: nothing a name needs, and they would reach every dashboard.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export type MetadataRow = SymbolMetadata & { symbol: string };

export type MetadataFile = { ok: true; rows: MetadataRow[] } | { ok: false; errors: string[] };

/** Reads and checks a file from disk. */
export function readMetadataFile(path: string): MetadataFile {
  try {
    return check(path, (sink) => readCsvFile(path, sink));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === undefined) throw err;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : code === "EACCES" ? "permission denied" : code;
    return { ok: false, errors: [`${path}: cannot read: ${why}`] };
  }
}

/** Reads and checks a file's text (tests, and any caller holding it in memory). */
export function readMetadataText(file: string, text: string): MetadataFile {
  return check(file, (sink) => readCsvText(text, sink));
}

function check(file: string, read: (sink: RecordSink) => void): MetadataFile {
  const errors = new RowErrors(file, MAX_LISTED);
  const rows: MetadataRow[] = [];
  const firstLine = new Map<string, number>();
  let columns: number[] | null = null;
  let width = 0;
  let headerProblem: string | null = null;
  try {
    read((fields, line) => {
      if (headerProblem) return;
      if (!columns) {
        const names = fields.map(normaliseColumnName);
        const at = METADATA_COLUMNS.map((c) => names.indexOf(c));
        const lacking = METADATA_COLUMNS.filter((_, i) => at[i]! < 0);
        if (lacking.length > 0) {
          headerProblem = `${file}:${line}: header lacks ${lacking.join(", ")}; expected ${METADATA_COLUMNS.join(",")} (any order, extra columns ignored), got ${shownColumns(fields)}`;
          return;
        }
        columns = at;
        width = fields.length;
        return;
      }
      if (fields.length !== width) return errors.add(line, `${fields.length} fields, but the header has ${width}`);
      if (rows.length >= MAX_ROWS) return errors.add(line, `more than ${MAX_ROWS} rows`);
      const [symbol, ...values] = columns.map((c) => fields[c]!);
      if (!isValidSymbol(symbol!)) return errors.add(line, `symbol ${shownValue(symbol!)} is not 1-32 of A-Z a-z 0-9 & . _ -`);
      const seen = firstLine.get(symbol!);
      if (seen !== undefined) return errors.add(line, `symbol ${symbol} again (first on line ${seen})`);
      firstLine.set(symbol!, line);
      const [name, sector, industry] = values.map((v) => (v === "" ? null : v));
      for (const [column, v] of [
        ["name", name],
        ["sector", sector],
        ["industry", industry],
      ] as const) {
        if (v === null || v === undefined) continue;
        if (v.length > MAX_VALUE_CHARS) return errors.add(line, `${column} is over ${MAX_VALUE_CHARS} characters`);
        if (CONTROL.test(v)) return errors.add(line, `${column} ${shownValue(v)} holds a control character`);
      }
      rows.push({ symbol: symbol!, name: name ?? null, sector: sector ?? null, industry: industry ?? null });
    });
  } catch (err) {
    if (err instanceof CsvSyntaxError) errors.add(err.line, err.message);
    else throw err;
  }
  if (headerProblem) return { ok: false, errors: [headerProblem] };
  if (!columns) return { ok: false, errors: [`${file}: empty file; expected a header ${METADATA_COLUMNS.join(",")}`] };
  return errors.count > 0 ? { ok: false, errors: errors.lines() } : { ok: true, rows };
}
