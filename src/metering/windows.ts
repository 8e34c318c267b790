/**
 * The window arithmetic, pure (docs/api.md § Metering). Minute: sliding window log over (now − 60
 * 000 ms, now] — a request exactly 60.000 s after an admitted one is admitted, at 59.999 s it is
 * not. Day: the UTC calendar day. Both exhausted → DAILY_QUOTA_EXCEEDED, since waiting a minute
 * would not help.
 */

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

export interface Limits {
  perMinute: number;
  perDay: number;
}

export type DenialCode = "RATE_LIMITED" | "DAILY_QUOTA_EXCEEDED";

/** What the meter looks like for one user at `now`, after this request (if it was admitted). */
export interface MeterState {
  now: number;
  limits: Limits;
  /** Admitted requests in (now − 60 s, now], including this one if admitted. */
  minuteUsed: number;
  /** Admitted requests since the last UTC midnight, including this one if admitted. */
  dayUsed: number;
  /** Epoch ms of the oldest admitted request in the minute window, null when it is empty. */
  oldestInWindow: number | null;
  /** Epoch ms of the next UTC midnight. */
  nextMidnight: number;
  /** Set on a denial: the Retry-After seconds. */
  retryAfter?: number;
}

/** The admitted requests of one user in the minute window, oldest first. */
export interface MinuteWindow {
  count: number;
  /** Timestamp of the k-th oldest entry (0 = oldest), 0 ≤ k < count. */
  nth(k: number): number;
}

/** A MinuteWindow over an ascending array (tests, and small windows). */
export function windowOf(timestamps: readonly number[]): MinuteWindow {
  return { count: timestamps.length, nth: (k) => timestamps[k]! };
}

export interface WindowInput {
  now: number;
  /**
   * Admitted requests with ts > now − 60 000. Rows stamped slightly after `now` (another
   * process's clock) are included on purpose: they were admitted, so they count.
   */
  minute: MinuteWindow;
  /** Admitted requests with ts ≥ the last UTC midnight. */
  dayCount: number;
  limits: Limits;
}

export type WindowDecision = { ok: true; state: MeterState } | { ok: false; code: DenialCode; retryAfter: number; state: MeterState };

/** Start of the UTC day containing `now`. */
export const utcDayStart = (now: number): number => Math.floor(now / DAY_MS) * DAY_MS;

/** The state without admitting anything (for headers on responses that are not metered, e.g. 400). */
export function peekState(input: WindowInput): MeterState {
  const { now, minute, dayCount, limits } = input;
  return {
    now,
    limits,
    minuteUsed: minute.count,
    dayUsed: dayCount,
    oldestInWindow: minute.count > 0 ? minute.nth(0) : null,
    nextMidnight: utcDayStart(now) + DAY_MS,
  };
}

/** Admit or deny one request. Checks every window before anything is recorded. */
export function decide(input: WindowInput): WindowDecision {
  const before = peekState(input);
  const { now, minute, limits } = input;
  if (before.dayUsed >= limits.perDay) {
    const retryAfter = Math.max(1, Math.ceil((before.nextMidnight - now) / 1000));
    return { ok: false, code: "DAILY_QUOTA_EXCEEDED", retryAfter, state: { ...before, retryAfter } };
  }
  if (before.minuteUsed >= limits.perMinute) {
    // The slot frees when enough old entries leave that fewer than perMinute remain; with an
    // unchanged limit that is the oldest one.
    const freeing = minute.nth(before.minuteUsed - limits.perMinute);
    const retryAfter = Math.max(1, Math.ceil((freeing + MINUTE_MS - now) / 1000));
    return { ok: false, code: "RATE_LIMITED", retryAfter, state: { ...before, retryAfter } };
  }
  return {
    ok: true,
    state: {
      ...before,
      minuteUsed: before.minuteUsed + 1,
      dayUsed: before.dayUsed + 1,
      oldestInWindow: before.oldestInWindow === null ? now : Math.min(before.oldestInWindow, now),
    },
  };
}
