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

export interface UsagePort {
  ids: LogIds;
  /** Known users' audit rows with id in [fromId, toId) and ts in [from, to), of one user when given, grouped. */
  known(fromId: number, toId: number, from: number, to: number, user: string | undefined): Maybe<UsageGroup[]>;
  /** The first and last minute with unauthenticated counts, or null when there are none. */
  minutes(): Maybe<{ first: number; last: number } | null>;
  /** Unauthenticated requests per code over the minutes in [from, to). */
  anonymous(from: number, to: number): Maybe<{ code: string; requests: number }[]>;
}
