/** What each database implements for audit retention (retention.ts): its deletes, each one short statement. */
import type { LogIds } from "./log-ids.ts";
import type { Maybe } from "./meter-port.ts";

export interface RetentionPort {
  ids: LogIds;
  /** Deletes at most `limit` audit rows with an id below `belowId` and ts before `before`; how many. */
  deleteRequests(belowId: number, before: number, limit: number): Maybe<number>;
  /** Deletes the per-day counts of days starting before `day`; how many. */
  deleteDays(day: number): Maybe<number>;
  /** Deletes the unauthenticated counts of minutes before `minute`; how many. */
  deleteCounts(minute: number): Maybe<number>;
}
