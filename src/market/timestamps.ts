/**
 * Bar timestamps: parsing the import formats into (UTC instant, exchange-local offset) and
 * printing an instant back as exchange-local ISO 8601, the form every response uses.
 */

import { shownValue } from "./shown-value.ts";

/** One reason for every row without an offset, so a file of them is refused in one line (row-errors.ts). */
export const NO_OFFSET =
  "a date-time without a UTC offset: add one (e.g. 2024-01-02T09:15:00+05:30), or import with --default-offset " +
  "(e.g. --default-offset +05:30) to read such times as local time at that offset";

/** A bar start: UTC epoch milliseconds plus the exchange-local UTC offset in minutes. */
export interface Instant {
  ts: number;
  offsetMin: number;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}:?\d{2})?$/;

/**
 * Parses `2020-10-01`, `2020-10-01 00:00:00+05:30`, `2020-10-01T00:00:00+05:30`,
 * `2020-10-01T00:00:00Z` (also without seconds, with fractional seconds, or `+0530`).
 * A plain date is local midnight at `defaultOffsetMin` (UTC when not given). A date-time
 * without an offset is ambiguous (README.md § CLI allows only ISO 8601 with an offset, or a plain
 * date), so it is refused unless the caller gave a default offset explicitly.
 * Returns a reason string when the value is not a valid time.
 */
export function parseTimestamp(text: string, defaultOffsetMin?: number): Instant | string {
  const s = text.trim();
  let y: number,
    mo: number,
    d: number,
    h = 0,
    mi = 0,
    sec = 0,
    ms = 0;
  let offsetMin = defaultOffsetMin ?? 0;
  const dateOnly = DATE_ONLY.exec(s);
  if (dateOnly) {
    [y, mo, d] = [Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3])];
  } else {
    const m = DATE_TIME.exec(s);
    if (!m) return `bad timestamp ${shownValue(text)}: expected ISO 8601 like 2020-10-01T00:00:00+05:30 or a date like 2020-10-01`;
    [y, mo, d, h, mi] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])];
    sec = m[6] ? Number(m[6]) : 0;
    ms = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
    if (!m[8] && defaultOffsetMin === undefined) {
      return NO_OFFSET;
    }
    if (m[8]) {
      const off = m[8];
      if (off === "Z" || off === "z") offsetMin = 0;
      else {
        const digits = off.slice(1).replace(":", "");
        const oh = Number(digits.slice(0, 2));
        const om = Number(digits.slice(2));
        if (oh > 18 || om > 59) return `bad timestamp ${shownValue(text)}: offset ${off} is out of range`;
        offsetMin = (off[0] === "-" ? -1 : 1) * (oh * 60 + om);
      }
    }
  }
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || sec > 59) {
    return `bad timestamp ${shownValue(text)}: no such date or time`;
  }
  const ts = Date.UTC(y, mo - 1, d, h, mi, sec, ms) - offsetMin * 60_000;
  return { ts, offsetMin };
}

function daysInMonth(y: number, mo: number): number {
  return new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

/** `+05:30`, `-04:00`, `+00:00` (never `Z`, so every label has the same shape). */
export function formatOffset(offsetMin: number): string {
  const sign = offsetMin < 0 ? "-" : "+";
  const a = Math.abs(offsetMin);
  return `${sign}${String(Math.floor(a / 60)).padStart(2, "0")}:${String(a % 60).padStart(2, "0")}`;
}

/** Exchange-local ISO 8601 with seconds and offset, no milliseconds: `2020-10-01T00:00:00+05:30`. */
export function formatLocal(ts: number, offsetMin: number): string {
  return new Date(ts + offsetMin * 60_000).toISOString().slice(0, 19) + formatOffset(offsetMin);
}
