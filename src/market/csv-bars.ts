/**
 * Turning CSV records into bars: the header decides the columns (csv-columns.ts), each row is
 * checked (numbers, positive prices, low ≤ open, close ≤ high, volume ≥ 0) and becomes a bar or
 * a reason, row by row as the importer streams them (csv-import.ts, stageFile).
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

/** The symbol a per-symbol file stands for: its name without the extension. */
export function symbolFromFileName(file: string): string {
  const base = basename(file);
  return base.slice(0, base.length - extname(base).length);
}

/** Reads the rows of one file once its header is known. */
export class BarRows {
  private constructor(
    private readonly col: ColumnIndex,
    private readonly width: number,
    private readonly fileSymbol: string,
    private readonly opts: ParseOptions,
  ) {}

  get long(): boolean {
    return this.col.symbol >= 0;
  }

  /** The reader for `header`, or the `file:line: reason` that rejects the file. */
  static fromHeader(file: string, header: string[], line: number, opts: ParseOptions): BarRows | string {
    const col = resolveColumns(header, opts);
    if (typeof col === "string") return `${file}:${line}: ${col}`;
    const fileSymbol = symbolFromFileName(file);
    if (col.symbol < 0 && !isValidSymbol(fileSymbol)) {
      return `${file}: file name ${shownValue(fileSymbol)} is not a valid symbol (1-32 characters of A-Z a-z 0-9 & . _ -); rename the file or add a 'symbol' column`;
    }
    return new BarRows(col, header.length, fileSymbol, opts);
  }

  /** The row as a bar, or the reason it is bad. */
  read(record: string[]): BarRow | string {
    const { col } = this;
    if (record.length !== this.width) return `expected ${this.width} fields as in the header, got ${record.length}`;
    const symbol = col.symbol >= 0 ? record[col.symbol]! : this.fileSymbol;
    if (!isValidSymbol(symbol)) return `bad symbol ${shownValue(symbol)}: expected 1-32 characters of A-Z a-z 0-9 & . _ -`;
    const rawTs = record[col.timestamp]!;
    const when = parseTimestamp(rawTs, this.opts.defaultOffsetMin);
    if (typeof when === "string") return when;
    const adjusted = this.opts.price === "adj_close";
    const names = adjusted
      ? (["open", "high", "low", "close", "adj_close", "volume"] as const)
      : (["open", "high", "low", "close", "volume"] as const);
    const v: Record<string, number> = {};
    for (const name of names) {
      const raw = record[col[name]]!;
      const x = NUMBER.test(raw) ? Number(raw) : NaN;
      if (!Number.isFinite(x)) return `bad number in '${name}': ${shownValue(raw)}`;
      if (name === "volume" ? x < 0 : x <= 0)
        return name === "volume" ? `negative volume ${x}` : `'${name}' must be a positive price, got ${x}`;
      v[name] = x;
    }
    const { open, high, low, close, volume } = v as Record<"open" | "high" | "low" | "close" | "volume", number>;
    if (high < low) return `high ${high} is below low ${low}`;
    if (open < low || open > high) return `open ${open} is outside low ${low} … high ${high}`;
    if (close < low || close > high) return `close ${close} is outside low ${low} … high ${high}`;
    if (!adjusted) return { symbol, rawTs, ts: when.ts, offsetMin: when.offsetMin, open, high, low, close, volume };
    // The adjusted bar: every price scaled by adjusted close / close, so it stays a consistent bar.
    const f = v.adj_close! / close;
    return {
      symbol,
      rawTs,
      ts: when.ts,
      offsetMin: when.offsetMin,
      open: open * f,
      high: high * f,
      low: low * f,
      close: v.adj_close!,
      volume,
    };
  }
}
