/**
 * Which CSV column holds which bar field. Names match case-insensitively with spaces and
 * punctuation as `_`, and common layouts are recognised as they are (Yahoo Finance:
 * `Date,Open,High,Low,Close,Adj Close,Volume`); `--map field=Column` names any other column.
 * Only the timestamp and the close are required: open, high and low (together) and volume are
 * checked when present (csv-bars.ts says what is stored when they are not).
 */

import { shownColumns, shownValue } from "./shown-value.ts";

/** The columns every file needs: only the close is used downstream (many data sets are closes only). */
export const REQUIRED_COLUMNS = ["timestamp", "close"] as const;
/** Open, high and low come together or not at all (one alone cannot be checked against the others). */
export const RANGE_COLUMNS = ["open", "high", "low"] as const;
/** Every field a column can be mapped to. */
export const CSV_FIELDS = ["timestamp", "open", "high", "low", "close", "volume", "adj_close", "symbol"] as const;
export type CsvField = (typeof CSV_FIELDS)[number];

/** Which price becomes the stored close: the close as traded, or the close adjusted for splits and dividends. */
export type PriceColumn = "close" | "adj_close";

/** Header names (normalised) recognised for a field, best first. */
const ALIASES: Record<CsvField, string[]> = {
  timestamp: ["timestamp", "date", "datetime", "date_time"],
  open: ["open"],
  high: ["high"],
  low: ["low"],
  close: ["close"],
  adj_close: ["adj_close", "adjclose", "adjusted_close"],
  volume: ["volume", "vol"],
  symbol: ["symbol", "ticker"],
};

export const normaliseColumnName = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");

export type ColumnIndex = Record<CsvField, number>;

export interface ColumnOptions {
  /** Field → header name, from `--map`. */
  map?: Partial<Record<CsvField, string>>;
  price?: PriceColumn;
}

/** Parses `--map timestamp=Date,close=Close` (repeatable); throws a message naming the bad part. */
export function parseColumnMap(specs: readonly string[]): Partial<Record<CsvField, string>> {
  const map: Partial<Record<CsvField, string>> = {};
  for (const part of specs.flatMap((s) => s.split(","))) {
    const m = /^\s*([A-Za-z_]+)\s*=\s*(.+?)\s*$/.exec(part);
    const field = m?.[1]?.toLowerCase() as CsvField | undefined;
    if (!m || !CSV_FIELDS.includes(field!)) {
      throw new Error(`--map: expected field=Column with field one of ${CSV_FIELDS.join(", ")}, got ${shownValue(part)}`);
    }
    map[field!] = m[2]!;
  }
  return map;
}

/** Finds every field's column in `header`; a string is the reason the header cannot be used. */
export function resolveColumns(header: readonly string[], opts: ColumnOptions = {}): ColumnIndex | string {
  const names = header.map(normaliseColumnName);
  const col = {} as ColumnIndex;
  for (const field of CSV_FIELDS) {
    const mapped = opts.map?.[field];
    if (mapped !== undefined) {
      const i = header.findIndex((h) => h.trim().toLowerCase() === mapped.trim().toLowerCase());
      if (i < 0) return `--map ${field}=${mapped}: no column ${shownValue(mapped)} in the header (columns: ${shownColumns(header)})`;
      col[field] = i;
    } else {
      col[field] = ALIASES[field].map((a) => names.indexOf(a)).find((i) => i >= 0) ?? -1;
    }
  }
  const missing = REQUIRED_COLUMNS.filter((c) => col[c] < 0);
  if (missing.length > 0) {
    const list = missing.map((c) => `'${c}'`).join(", ");
    return (
      `missing column${missing.length > 1 ? "s" : ""} ${list} (header must include ${REQUIRED_COLUMNS.join(",")}, ` +
      `optionally open,high,low and volume; Yahoo-style Date,Open,High,Low,Close,Adj Close,Volume is recognised, ` +
      `other names take --map ${missing[0]}=Column)`
    );
  }
  const range = RANGE_COLUMNS.filter((c) => col[c] >= 0);
  if (range.length > 0 && range.length < RANGE_COLUMNS.length) {
    const absent = RANGE_COLUMNS.filter((c) => col[c] < 0);
    const list = absent.map((c) => `'${c}'`).join(", ");
    return (
      `missing column${absent.length > 1 ? "s" : ""} ${list}: open, high and low come together or not at all ` +
      `(columns: ${shownColumns(header)}; other names take --map ${absent[0]}=Column)`
    );
  }
  if (opts.price === "adj_close" && col.adj_close < 0) {
    return `--price adj_close needs an adjusted close column ('Adj Close', or --map adj_close=Column); columns: ${shownColumns(header)}`;
  }
  return col;
}
