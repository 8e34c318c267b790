/** What each database implements for the usage report (usage-report.ts): its aggregates, none of the day arithmetic. */
import type { LogIds } from "./log-ids.ts";
import type { Maybe } from "./meter-port.ts";

/** Audit rows of one user with one `counted` and status; an aggregated row weighs its n requests (audit-queue.ts). */
export interface UsageGroup {
  user: string;
  counted: number;
  status: number | null;
  requests: number;
}

/** A UsageGroup of the usage report, with the server time (ms) of its admitted rows (0 for the others). */
export interface KnownGroup extends UsageGroup {
  computeMs: number;
}

/**
 * Known users' rows of one outcome on one day; `admitted` 1 when the row was admitted (a boot id, or
 * still counted), so counted 0 there is a refund; `code` only for a refusal (429).
 */
export interface OutcomeGroup {
  /** Whole days from the range's start. */
  day: number;
  counted: number;
  code: string | null;
  admitted: number;
  status: number | null;
  requests: number;
}

/** One user's admitted requests (counted) and the server time (ms) its admitted requests took. */
export interface UserTotal {
  user: string;
  admitted: number;
  computeMs: number;
}

export interface UsagePort {
  ids: LogIds;
  /** Known users' audit rows with id in [fromId, toId) and ts in [from, to), of one user when given, grouped. */
  known(fromId: number, toId: number, from: number, to: number, user: string | undefined): Maybe<KnownGroup[]>;
  /**
   * Known users' rows with id in [fromId, toId) and ts in [from, to), grouped by day — whole days
   * of 86,400,000 ms from `from`, a UTC midnight, so UTC days — and outcome: one pass for the range.
   */
  outcomes(fromId: number, toId: number, from: number, to: number): Maybe<OutcomeGroup[]>;
  /** Per known user with admitted rows in the range: counted requests and their duration. */
  userTotals(fromId: number, toId: number, from: number, to: number): Maybe<UserTotal[]>;
  /** `users`' rows with ts in [from, to), grouped as `known`, found by the meter's (user_id, counted, ts) index. */
  ofUsers(users: readonly string[], from: number, to: number): Maybe<UsageGroup[]>;
  /** The first and last minute with unauthenticated counts, or null when there are none. */
  minutes(): Maybe<{ first: number; last: number } | null>;
  /** Unauthenticated requests per code over the minutes in [from, to). */
  anonymous(from: number, to: number): Maybe<{ code: string; requests: number }[]>;
}
