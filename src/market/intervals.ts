/**
 * Interval arithmetic: bucket boundaries in exchange-local time and which stored interval
 * can serve a requested one (src/market/README.md § Rules).
 */
import { INTERVALS, type Interval } from "../engine/types.ts";

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

/** Nominal length of each interval in milliseconds (1w = 7 days). */
export const INTERVAL_MS: Record<Interval, number> = {
  "1m": MINUTE,
  "5m": 5 * MINUTE,
  "15m": 15 * MINUTE,
  "30m": 30 * MINUTE,
  "1h": 60 * MINUTE,
  "1d": DAY,
  "1w": 7 * DAY,
};

export function isInterval(s: string): s is Interval {
  return (INTERVALS as readonly string[]).includes(s);
}

/**
 * Start (UTC ms) of the `interval` bucket holding a bar that starts at `ts` with local offset
 * `offsetMin`. Buckets are multiples of the interval in local time; weeks are ISO weeks
 * starting Monday 00:00 local.
 */
export function bucketStart(ts: number, offsetMin: number, interval: Interval): number {
  const shift = offsetMin * MINUTE;
  const local = ts + shift;
  if (interval === "1w") {
    const day = Math.floor(local / DAY);
    // 1970-01-01 was a Thursday: (day + 3) mod 7 is the weekday with Monday = 0.
    const weekday = (((day + 3) % 7) + 7) % 7;
    return (day - weekday) * DAY - shift;
  }
  const size = INTERVAL_MS[interval];
  return Math.floor(local / size) * size - shift;
}

/**
 * True when bars at `from` tile bars at `to` exactly: intraday intervals whose lengths divide,
 * any intraday interval into days, and days into weeks. Weeks are only built from days, so a
 * short stretch of minute bars never stands in for years of daily history.
 */
export function divides(from: Interval, to: Interval): boolean {
  if (from === to) return true;
  if (to === "1w") return from === "1d";
  if (from === "1d" || from === "1w") return false;
  return INTERVAL_MS[to] % INTERVAL_MS[from] === 0 && INTERVAL_MS[to] > INTERVAL_MS[from];
}

/**
 * The interval to read for a request: `wanted` itself when stored, else the finest stored
 * interval that divides it; null when none can.
 */
export function chooseSourceInterval(wanted: Interval, stored: readonly Interval[]): Interval | null {
  if (stored.includes(wanted)) return wanted;
  for (const iv of INTERVALS) {
    if (stored.includes(iv) && divides(iv, wanted)) return iv;
  }
  return null;
}

/** The intervals that could serve `wanted`, finest first (for error messages). */
export function servingIntervals(wanted: Interval): Interval[] {
  return INTERVALS.filter((iv) => divides(iv, wanted));
}
