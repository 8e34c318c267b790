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

/** Known users' rows of one outcome; `admitted` 1 when the row was admitted (a boot id, or still counted), so counted 0 there is a refund. */
export interface OutcomeGroup {
  counted: number;
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
  known(fromId: number, toId: number, from: number, to: number, user: string | undefined): Maybe<UsageGroup[]>;
  /** Known users' rows with id in [fromId, toId) and ts in [from, to), grouped by outcome (the console's days). */
  outcomes(fromId: number, toId: number, from: number, to: number): Maybe<OutcomeGroup[]>;
  /** Per known user with admitted rows in the range: counted requests and their duration. */
  userTotals(fromId: number, toId: number, from: number, to: number): Maybe<UserTotal[]>;
  /** Known users' refusals (status 429) in the range per code. */
  refusedCodes(fromId: number, toId: number, from: number, to: number): Maybe<{ code: string; requests: number }[]>;
  /** `users`' rows with ts in [from, to), grouped as `known`, found by the meter's (user_id, counted, ts) index. */
  ofUsers(users: readonly string[], from: number, to: number): Maybe<UsageGroup[]>;
  /** The first and last minute with unauthenticated counts, or null when there are none. */
  minutes(): Maybe<{ first: number; last: number } | null>;
  /** Unauthenticated requests per code over the minutes in [from, to). */
  anonymous(from: number, to: number): Maybe<{ code: string; requests: number }[]>;
}
