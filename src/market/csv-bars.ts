/**
 * Parsing and validating one bar CSV (pure: text in, bars or `file:line: reason` errors out).
 * Either per-symbol (file stem = symbol) or long (a `symbol` column).
 */
import { parse } from "csv-parse/sync";
import { basename, extname } from "node:path";
import type { Bar } from "./bar.ts";
import { isValidSymbol } from "./symbols.ts";
import { parseTimestamp } from "./timestamps.ts";

export const REQUIRED_COLUMNS = ["timestamp", "open", "high", "low", "close", "volume"] as const;

/** Errors listed per file before the rest are summarised as a count. */
const MAX_ERRORS = 20;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export type ParsedCsv =
  | { ok: true; symbols: string[]; bars: Map<string, Bar[]>; rows: number }
  | { ok: false; errors: string[] };

export interface ParseOptions {
  /** Offset (minutes) for timestamps that carry none, e.g. plain dates. Default 0 (UTC). */
  defaultOffsetMin?: number;
}

/** The symbol a per-symbol file stands for: its name without the extension. */
export function symbolFromFileName(file: string): string {
  const base = basename(file);
  return base.slice(0, base.length - extname(base).length);
}

/**
 * Parses `text` (the content of `file`; `file` names it in messages). Symbols are listed in
 * first-appearance order, each symbol's bars sorted by time.
 */
export function parseBarsCsv(file: string, text: string, opts: ParseOptions = {}): ParsedCsv {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true }) as never;
  } catch (err) {
    const line = (err as { lines?: number }).lines;
    return { ok: false, errors: [`${file}:${line ?? 1}: malformed CSV: ${(err as Error).message}`] };
  }
  if (records.length === 0) {
    return { ok: false, errors: [`${file}:1: empty file: expected a header row ${REQUIRED_COLUMNS.join(",")}`] };
  }
  const header = records[0]!.record.map((h) => h.toLowerCase());
  const headerLine = records[0]!.info.lines;
  const col: Record<string, number> = {};
  for (const name of [...REQUIRED_COLUMNS, "symbol"]) col[name] = header.indexOf(name);
  const missing = REQUIRED_COLUMNS.filter((c) => col[c]! < 0);
  if (missing.length > 0) {
    const list = missing.map((c) => `'${c}'`).join(", ");
    return { ok: false, errors: [`${file}:${headerLine}: missing column${missing.length > 1 ? "s" : ""} ${list} (header must include ${REQUIRED_COLUMNS.join(",")})`] };
  }
  const symCol = col.symbol!;
  const fileSymbol = symbolFromFileName(file);
  if (symCol < 0 && !isValidSymbol(fileSymbol)) {
    return { ok: false, errors: [`${file}: file name '${fileSymbol}' is not a valid symbol (1-32 characters of A-Z a-z 0-9 & . _ -); rename the file or add a 'symbol' column`] };
  }
  if (records.length === 1) return { ok: false, errors: [`${file}: no data rows after the header`] };

  const errors: string[] = [];
  let errorCount = 0;
  const fail = (line: number, reason: string) => {
    if (++errorCount <= MAX_ERRORS) errors.push(`${file}:${line}: ${reason}`);
  };
  const bars = new Map<string, Bar[]>();
  const seen = new Map<string, Map<number, number>>();
  for (let r = 1; r < records.length; r++) {
    const { record, info } = records[r]!;
    const line = info.lines;
    if (record.length !== header.length) {
      fail(line, `expected ${header.length} fields as in the header, got ${record.length}`);
      continue;
    }
    const symbol = symCol >= 0 ? record[symCol]! : fileSymbol;
    if (!isValidSymbol(symbol)) {
      fail(line, `bad symbol '${symbol}': expected 1-32 characters of A-Z a-z 0-9 & . _ -`);
      continue;
    }
    const when = parseTimestamp(record[col.timestamp!]!, opts.defaultOffsetMin);
    if (typeof when === "string") {
      fail(line, when);
      continue;
    }
    const values: number[] = [];
    let bad = false;
    for (const name of ["open", "high", "low", "close", "volume"] as const) {
      const raw = record[col[name]!]!;
      const v = NUMBER.test(raw) ? Number(raw) : NaN;
      if (!Number.isFinite(v)) {
        fail(line, `bad number in '${name}': '${raw}'`);
        bad = true;
        break;
      }
      if (name === "volume" ? v < 0 : v <= 0) {
        fail(line, name === "volume" ? `negative volume ${raw}` : `'${name}' must be a positive price, got ${raw}`);
        bad = true;
        break;
      }
      values.push(v);
    }
    if (bad) continue;
    const [open, high, low, close, volume] = values as [number, number, number, number, number];
    if (high < low) {
      fail(line, `high ${high} is below low ${low}`);
      continue;
    }
    let symSeen = seen.get(symbol);
    if (!symSeen) {
      symSeen = new Map();
      seen.set(symbol, symSeen);
      bars.set(symbol, []);
    }
    const first = symSeen.get(when.ts);
    if (first !== undefined) {
      fail(line, `duplicate timestamp '${record[col.timestamp!]}'${symCol >= 0 ? ` for ${symbol}` : ""} (first at line ${first})`);
      continue;
    }
    symSeen.set(when.ts, line);
    bars.get(symbol)!.push({ ts: when.ts, offsetMin: when.offsetMin, open, high, low, close, volume });
  }
  if (errorCount > 0) {
    if (errorCount > MAX_ERRORS) errors.push(`${file}: ... and ${errorCount - MAX_ERRORS} more bad rows`);
    return { ok: false, errors };
  }
  let rows = 0;
  for (const list of bars.values()) {
    list.sort((a, b) => a.ts - b.ts);
    rows += list.length;
  }
  return { ok: true, symbols: [...bars.keys()], bars, rows };
}
