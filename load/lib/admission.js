// Per-user admission accounting for the limiter-exactness test. A k6 VU owns one user, so it sees every
// request of that user; it knows each request's send time and response time but not the instant the
// server admitted it, which lies somewhere in between. Verdicts are therefore only raised when they are
// certain for every admission instant consistent with those bounds (plus a safety margin).

const MINUTE_MS = 60000;

/**
 * @typedef {{ startMs: number, endMs: number, status: number, code: string | null,
 *   remaining: number | null, dailyRemaining: number | null }} Observation
 * @typedef {{ admitted: number, rejected: number, windowAdmissions: number, overAdmitted: number,
 *   underAdmitted: number, dailyOverAdmitted: number, staleRemaining: number }} BurstVerdict
 */

/**
 * Largest number of admissions that certainly fall inside one minute window: for each admission `i`,
 * those that were sent no earlier than `i` and answered before `i`'s send time + 60 s − margin.
 * @param {Observation[]} admitted
 * @param {number} marginMs
 * @returns {number}
 */
export function maxCertainInWindow(admitted, marginMs) {
  let best = 0;
  for (const a of admitted) {
    let n = 0;
    for (const b of admitted) {
      if (b.startMs >= a.startMs && b.endMs < a.startMs + MINUTE_MS - marginMs) n += 1;
    }
    if (n > best) best = n;
  }
  return best;
}

/**
 * Creates the ledger of one user. `perMinute`/`perDay` are the limits the server announced in its
 * headers (so raised limits on a test deployment work unchanged).
 * @param {{ marginMs?: number }} [opts]
 */
export function createLedger(opts) {
  const marginMs = opts && opts.marginMs !== undefined ? opts.marginMs : 1000;
  /** @type {Observation[]} */
  let admitted = [];
  let admittedToday = 0;
  let day = -1;
  // Before a user's first burst its history is unknown: an earlier run with the same token may have
  // admissions that still fill the window. They all precede the first burst, so they have certainly left
  // the window a minute (plus the margin) after it; until then no window is known to be empty.
  let unknownHistoryUntilMs = Infinity;

  /**
   * Records one burst of concurrent requests (all sent together) and judges it.
   * @param {Observation[]} burst
   * @param {{ perMinute: number, perDay: number }} limits
   * @returns {BurstVerdict}
   */
  function recordBurst(burst, limits) {
    if (burst.length === 0) throw new Error("recordBurst needs at least one observation");
    const burstStart = Math.min(...burst.map((o) => o.startMs));
    const burstDay = Math.floor(burstStart / 86400000);
    if (burstDay !== day) {
      day = burstDay;
      admittedToday = 0;
    }
    if (unknownHistoryUntilMs === Infinity) unknownHistoryUntilMs = burstStart + MINUTE_MS + marginMs;
    const windowWasEmpty = burstStart >= unknownHistoryUntilMs && admitted.every((a) => a.endMs + MINUTE_MS + marginMs <= burstStart);
    const mine = burst.filter((o) => o.status === 200);
    admitted = admitted.filter((a) => a.endMs > burstStart - 2 * MINUTE_MS).concat(mine);
    admittedToday += mine.length;

    const windowAdmissions = maxCertainInWindow(admitted, marginMs);
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
      staleRemaining: countStaleRemaining(mine, admitted, limits.perMinute, marginMs),
    };
  }

  return { recordBurst };
}

/**
 * Admitted responses whose `X-RateLimit-Remaining` is higher than it can be: the server must count this
 * request and every admission that certainly happened before it within the last minute.
 * @param {Observation[]} fresh
 * @param {Observation[]} all
 * @param {number} perMinute
 * @param {number} marginMs
 * @returns {number}
 */
function countStaleRemaining(fresh, all, perMinute, marginMs) {
  let stale = 0;
  for (const o of fresh) {
    if (o.remaining === null) continue;
    const before = all.filter((a) => a !== o && a.endMs <= o.startMs && a.startMs > o.endMs - MINUTE_MS + marginMs).length;
    if (o.remaining > perMinute - 1 - before) stale += 1;
  }
  return stale;
}
