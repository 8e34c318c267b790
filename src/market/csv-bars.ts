/**
 * Turning CSV records into bars: the header decides the columns (csv-columns.ts), each row is
 * checked (numbers, positive prices, low ≤ open, close ≤ high, volume ≥ 0) and becomes a bar or
 * a reason, row by row as the importer streams them (csv-import.ts, stageFile). Parquet rows come
 * here too, as the same text (parquet-records.ts), so both formats share every check and message.
 * Either per-symbol (file stem = symbol) or long (a `symbol` column).
 */
import { basename, extname } from "node:path";
import type { Interval } from "../engine/types.ts";
import type { Bar } from "./bar.ts";
import { REQUIRED_COLUMNS, resolveColumns, type ColumnIndex, type ColumnOptions } from "./csv-columns.ts";
import { shownValue } from "./shown-value.ts";
import { isValidSymbol } from "./symbols.ts";
import { parseTimestamp } from "./timestamps.ts";

export { REQUIRED_COLUMNS };

/** Errors listed per file before the rest are summarised as a count. */
export const MAX_ERRORS = 20;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export interface ParseOptions extends ColumnOptions {
  /** Offset (minutes) for timestamps that carry none, e.g. plain dates. Default 0 (UTC). */
  defaultOffsetMin?: number;
  /** When given, bar spacing that contradicts it rejects the file (see csv-spacing.ts). */
  interval?: Interval;
}

/** One data row as a bar of `symbol`; `rawTs` is the timestamp as written (for messages). */
export interface BarRow extends Bar {
  symbol: string;
  rawTs: string;
}

/** The symbol a per-symbol file stands for: its name without the extension (`AAA.csv.gz` → `AAA`). */
export function symbolFromFileName(file: string): string {
  let base = basename(file);
  if (/\.gz$/i.test(base)) base = base.slice(0, -3);
  return base.slice(0, base.length - extname(base).length);
}

type Priced = "open" | "high" | "low" | "close" | "adj_close" | "volume";
/** The numeric fields in the order they are checked (the first bad one is the row's reason). */
const NUMERIC: readonly Priced[] = ["open", "high", "low", "close", "adj_close", "volume"];

/** Reads the rows of one file once its header is known. */
export class BarRows {
  /** The numeric fields this file has (adj_close only with --price adj_close). */
  private readonly fields: readonly Priced[];
  private readonly ranged: boolean;

  private constructor(
    readonly col: ColumnIndex,
    private readonly width: number,
    private readonly fileSymbol: string,
    private readonly opts: ParseOptions,
  ) {
    const adjusted = opts.price === "adj_close";
    this.fields = NUMERIC.filter((f) => col[f] >= 0 && (f !== "adj_close" || adjusted));
    this.ranged = col.open >= 0;
  }

  get long(): boolean {
    return this.col.symbol >= 0;
  }

  /**
   * The reader for `header`, or the `file:line: reason` that rejects the file. `line` 0 means the
   * header has no line of its own (a Parquet schema): the reason is then `file: reason`.
   */
  static fromHeader(file: string, header: readonly string[], line: number, opts: ParseOptions): BarRows | string {
    const col = resolveColumns(header, opts);
    const where = line > 0 ? `${file}:${line}` : file;
    if (typeof col === "string") return `${where}: ${col}`;
    const fileSymbol = symbolFromFileName(file);
    if (col.symbol < 0 && !isValidSymbol(fileSymbol)) {
      return `${file}: file name ${shownValue(fileSymbol)} is not a valid symbol (1-32 characters of A-Z a-z 0-9 & . _ -); rename the file or add a 'symbol' column`;
    }
    return new BarRows(col, header.length, fileSymbol, opts);
  }

  /**
   * The row as a bar, or the reason it is bad. A null field (Parquet) is refused like a bad value.
   * Without open/high/low the bar stores the close as all four prices, and without volume 0:
   * the columns are NOT NULL, and nothing downstream reads anything but the close.
   */
  read(record: readonly (string | null)[]): BarRow | string {
    const { col } = this;
    if (record.length !== this.width) return `expected ${this.width} fields as in the header, got ${record.length}`;
    const symbol = col.symbol >= 0 ? record[col.symbol]! : this.fileSymbol;
    if (symbol === null) return "'symbol' is null";
    if (!isValidSymbol(symbol)) return `bad symbol ${shownValue(symbol)}: expected 1-32 characters of A-Z a-z 0-9 & . _ -`;
    const rawTs = record[col.timestamp]!;
    if (rawTs === null) return "'timestamp' is null";
    const when = parseTimestamp(rawTs, this.opts.defaultOffsetMin);
    if (typeof when === "string") return when;
    const v: Partial<Record<Priced, number>> = {};
    for (const name of this.fields) {
      const raw = record[col[name]]!;
      if (raw === null) return `'${name}' is null`;
      const x = NUMBER.test(raw) ? Number(raw) : NaN;
      if (!Number.isFinite(x)) return `bad number in '${name}': ${shownValue(raw)}`;
      if (name === "volume" ? x < 0 : x <= 0)
        return name === "volume" ? `negative volume ${x}` : `'${name}' must be a positive price, got ${x}`;
      v[name] = x;
    }
    const close = v.close!;
    const volume = v.volume ?? 0;
    let open = close;
    let high = close;
    let low = close;
    if (this.ranged) {
      [open, high, low] = [v.open!, v.high!, v.low!];
      if (high < low) return `high ${high} is below low ${low}`;
      if (open < low || open > high) return `open ${open} is outside low ${low} … high ${high}`;
      if (close < low || close > high) return `close ${close} is outside low ${low} … high ${high}`;
    }
    if (v.adj_close === undefined) return { symbol, rawTs, ts: when.ts, offsetMin: when.offsetMin, open, high, low, close, volume };
    // The adjusted bar: every price scaled by adjusted close / close, so it stays a consistent bar.
    const f = v.adj_close / close;
    const adj = this.ranged ? { open: open * f, high: high * f, low: low * f } : { open: v.adj_close, high: v.adj_close, low: v.adj_close };
    return { symbol, rawTs, ts: when.ts, offsetMin: when.offsetMin, ...adj, close: v.adj_close, volume };
  }
}
