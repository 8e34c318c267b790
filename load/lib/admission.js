// Per-user admission accounting for the limiter-exactness test. A k6 VU owns one user, so it sees every
// request of that user; it knows each request's send time and response time but not the instant the
// server admitted it, which lies somewhere in between. Verdicts are therefore only raised when they are
// certain for every admission instant consistent with those bounds (plus a safety margin).
//
// Which windows the verdicts assume:
// - "sliding" (the full profile): graph-stats' own, docs/api.md § Metering: a sliding 60 s minute and the
//   UTC calendar day.
// - "announced" (the core profile): any minute window of 60 s whose end each answer announces in
//   `X-RateLimit-Reset` (sliding, anchored at a first request, or on the clock), and any day window. Two
//   admissions whose announced resets are 59 s or more apart were counted in different windows, so they are
//   never counted together; a new day is seen when `X-RateLimit-Daily-Remaining` rises, which no refusal
//   or admission can make it do.

const MINUTE_MS = 60000;
/** Resets this far apart name different minute windows: consecutive ones end 60 s apart or more. */
const OTHER_WINDOW_S = 59;

/**
 * @typedef {{ startMs: number, endMs: number, status: number, code: string | null,
 *   remaining: number | null, dailyRemaining: number | null, reset?: number | null }} Observation
 *   `reset` is the response's `X-RateLimit-Reset` (epoch seconds), when it carried one.
 * @typedef {{ admitted: number, rejected: number, windowAdmissions: number, overAdmitted: number,
 *   underAdmitted: number, dailyOverAdmitted: number, staleRemaining: number }} BurstVerdict
 * @typedef {"sliding" | "announced"} Windows
 */

/**
 * True when the answers of `a` and `b` name different minute windows (announced windows only).
 * @param {Observation} a
 * @param {Observation} b
 * @param {Windows} windows
 * @returns {boolean}
 */
function otherWindows(a, b, windows) {
  if (windows === "sliding" || a.reset === null || a.reset === undefined || b.reset === null || b.reset === undefined) return false;
  return Math.abs(a.reset - b.reset) >= OTHER_WINDOW_S;
}

/**
 * Largest number of admissions that certainly fall inside one minute window: for each admission `a`,
 * those that were sent no earlier than `a` and answered before `a`'s send time + 60 s − margin (and,
 * with announced windows, were not counted in another window than `a`).
 * @param {Observation[]} admitted
 * @param {number} marginMs
 * @param {Windows} [windows] "sliding" unless given
 * @returns {number}
 */
export function maxCertainInWindow(admitted, marginMs, windows) {
  const kind = windows || "sliding";
  let best = 0;
  for (const a of admitted) {
    let n = 0;
    for (const b of admitted) {
      if (b.startMs >= a.startMs && b.endMs < a.startMs + MINUTE_MS - marginMs && !otherWindows(a, b, kind)) n += 1;
    }
    if (n > best) best = n;
  }
  return best;
}

/**
 * Creates the ledger of one user. `perMinute`/`perDay` are the limits the server announced in its
 * headers, or those given (so raised limits on a test deployment work unchanged).
 * @param {{ marginMs?: number, windows?: Windows }} [opts]
 */
export function createLedger(opts) {
  const marginMs = opts && opts.marginMs !== undefined ? opts.marginMs : 1000;
  const windows = (opts && opts.windows) || "sliding";
  /** @type {Observation[]} */
  let admitted = [];
  let admittedToday = 0;
  let day = -1;
  /** Lowest `X-RateLimit-Daily-Remaining` seen in the current day window (announced windows). */
  let lowestDaily = Infinity;
  // Before a user's first burst its history is unknown: an earlier run with the same token may have
  // admissions that still fill the window. They all precede the first burst, so they have certainly left
  // the window a minute (plus the margin) after it; until then no window is known to be empty.
  let unknownHistoryUntilMs = Infinity;

  /**
   * A new day window: the UTC day changed (sliding), or the daily remaining rose (announced).
   * @param {Observation[]} burst
   * @param {number} burstStart
   * @returns {boolean}
   */
  function newDay(burst, burstStart) {
    if (windows === "sliding") {
      const burstDay = Math.floor(burstStart / 86400000);
      const changed = burstDay !== day;
      day = burstDay;
      return changed;
    }
    const seen = burst.map((o) => o.dailyRemaining).filter((r) => r !== null);
    const rose = seen.some((r) => /** @type {number} */ (r) > lowestDaily);
    if (rose) lowestDaily = Infinity;
    for (const r of seen) lowestDaily = Math.min(lowestDaily, /** @type {number} */ (r));
    return rose;
  }

  /**
   * Records one burst of concurrent requests (all sent together) and judges it.
   * @param {Observation[]} burst
   * @param {{ perMinute: number, perDay: number }} limits
   * @returns {BurstVerdict}
   */
  function recordBurst(burst, limits) {
    if (burst.length === 0) throw new Error("recordBurst needs at least one observation");
    const burstStart = Math.min(...burst.map((o) => o.startMs));
    if (newDay(burst, burstStart)) admittedToday = 0;
    if (unknownHistoryUntilMs === Infinity) unknownHistoryUntilMs = burstStart + MINUTE_MS + marginMs;
    const windowWasEmpty = burstStart >= unknownHistoryUntilMs && admitted.every((a) => a.endMs + MINUTE_MS + marginMs <= burstStart);
    const mine = burst.filter((o) => o.status === 200);
    admitted = admitted.filter((a) => a.endMs > burstStart - 2 * MINUTE_MS).concat(mine);
    admittedToday += mine.length;

    const windowAdmissions = maxCertainInWindow(admitted, marginMs, windows);
    // Near the daily ceiling the minute limit is not what binds, so under-admission is not judged there.
    const nearDailyCeiling = burst.some((o) => o.code === "DAILY_QUOTA_EXCEEDED" || o.dailyRemaining === 0);
    const serverError = burst.some((o) => o.status >= 500);
    const expected = Math.min(limits.perMinute, burst.length);
    const underAdmitted = windowWasEmpty && !nearDailyCeiling && !serverError ? Math.max(0, expected - mine.length) : 0;

    return {
      admitted: mine.length,
      rejected: burst.length - mine.length,
      windowAdmissions,
      overAdmitted: Math.max(0, windowAdmissions - limits.perMinute),
      underAdmitted,
      dailyOverAdmitted: Math.max(0, admittedToday - limits.perDay),
      staleRemaining: countStaleRemaining(mine, admitted, limits.perMinute, marginMs, windows),
    };
  }

  return { recordBurst };
}

/**
 * Admitted responses whose `X-RateLimit-Remaining` is higher than it can be: the server must count this
 * request and every admission that certainly happened before it within the last minute (and, with
 * announced windows, in the same window).
 * @param {Observation[]} fresh
 * @param {Observation[]} all
 * @param {number} perMinute
 * @param {number} marginMs
 * @param {Windows} windows
 * @returns {number}
 */
function countStaleRemaining(fresh, all, perMinute, marginMs, windows) {
  let stale = 0;
  for (const o of fresh) {
    if (o.remaining === null) continue;
    const before = all.filter(
      (a) => a !== o && a.endMs <= o.startMs && a.startMs > o.endMs - MINUTE_MS + marginMs && !otherWindows(a, o, windows),
    ).length;
    if (o.remaining > perMinute - 1 - before) stale += 1;
  }
  return stale;
}
