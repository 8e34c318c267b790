/**
 * Rows of the audit log by time without an index on ts (db/sqlite/schema.ts: every index is written by
 * each live request). Ids grow with ts: an admitted row's time is read under the write lock, so
 * ids follow it; rows written later by the audit queue or by another instance's clock are out of
 * order by seconds. Bisecting the id with that slack gives an id range certain to hold every row
 * of a time range; queries then filter on ts exactly within it.
 */
import type { Maybe } from "./meter-port.ts";

/** Far more than rows are ever out of order: the audit queue's delay and the clocks' skew. */
export const ORDER_SLACK_MS = 3600_000;

/** Each database's two reads, both on the primary key. */
export interface LogIds {
  /** The smallest and largest id, or null when the log is empty. */
  bounds(): Maybe<{ min: number; max: number } | null>;
  /** The first row whose id is at least `id`, or null. */
  atOrAfter(id: number): Maybe<{ id: number; ts: number } | null>;
}

/** The first id whose row's ts is at least `t` (max + 1 when none is), assuming ts ordered with id. */
async function firstIdAt(log: LogIds, t: number): Promise<number> {
  const b = await log.bounds();
  if (!b) return 0;
  let lo = b.min;
  let hi = b.max + 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const row = await log.atOrAfter(mid);
    if (!row || row.ts >= t) hi = mid;
    else lo = row.id + 1;
  }
  return lo;
}

/** Every row with ts ≥ t has an id at least this. */
export const idFloor = (log: LogIds, t: number) => firstIdAt(log, t - ORDER_SLACK_MS);

/** Every row with ts < t has an id below this. */
export const idCeiling = (log: LogIds, t: number) => firstIdAt(log, t + ORDER_SLACK_MS);
