/**
 * README.md § CLI (import): a bar of 1d or longer is identified by its symbol, interval and local
 * date. The same daily bars imported once plainly and once with `--default-offset +05:30` used to
 * be two bars per day (every row "new"), which silently changed every correlation; now an import
 * whose bars fall on dates the symbol already has at another offset is refused, naming both
 * offsets, unless `--replace` replaces the stored ones. One rule here; each store reads its own
 * bars.
 */
import type { Interval } from "../engine/types.ts";
import { formatOffset } from "./timestamps.ts";

const DAY_MS = 86_400_000;

/** Intervals whose bars are named by a local date. */
export function datedInterval(interval: Interval): boolean {
  return interval === "1d" || interval === "1w";
}

export interface StagedKey {
  symbol: string;
  ts: number;
  offsetMin: number;
  line: number;
}

export interface StoredKey {
  ts: number;
  offsetMin: number;
}

export interface Clash {
  line: number;
  symbol: string;
  /** The local date both bars fall on. */
  date: string;
  offsetMin: number;
  stored: StoredKey;
}

const localDay = (k: StoredKey) => Math.floor((k.ts + k.offsetMin * 60_000) / DAY_MS);

/**
 * The staged bars (in line order) whose symbol already has a bar on the same local date with
 * another start: every one when `limit` is Infinity (what --replace deletes), else the first `limit`.
 */
export function findClashes(staged: Iterable<StagedKey>, storedOf: (symbol: string) => StoredKey[], limit: number): Clash[] {
  const bySymbol = new Map<string, Map<number, StoredKey>>();
  const out: Clash[] = [];
  for (const s of staged) {
    let days = bySymbol.get(s.symbol);
    if (!days) {
      days = new Map(storedOf(s.symbol).map((k) => [localDay(k), k]));
      bySymbol.set(s.symbol, days);
    }
    const day = localDay(s);
    const stored = days.get(day);
    if (stored && stored.ts !== s.ts) {
      out.push({ line: s.line, symbol: s.symbol, date: new Date(day * DAY_MS).toISOString().slice(0, 10), offsetMin: s.offsetMin, stored });
      if (out.length >= limit) break;
    }
  }
  return out;
}

/** The refusal of one clashing row, for `file:line: reason`. */
export function clashReason(c: Clash, interval: Interval): string {
  const at = (off: number) => `UTC offset ${formatOffset(off)}`;
  const other = c.stored.offsetMin === c.offsetMin ? "another time of day" : at(c.stored.offsetMin);
  return (
    `${c.symbol} already has a ${interval} bar for ${c.date} at ${other}, and this file's is at ${at(c.offsetMin)}: a bar of ` +
    `${interval} is one per local date; import with the same offset as before (--default-offset ${formatOffset(c.stored.offsetMin)}), ` +
    "or with --replace to replace the stored bars"
  );
}
