/**
 * Why a 503 was answered, as the label of graphstats_unavailable_total: a fixed set, so the series
 * stay bounded, each naming what the operator does about it (docs/deploy.md § 9. Monitoring).
 */
import { DatabaseStorageError, DatabaseUnavailableError, databaseError, isBusy, writeFailureOf } from "../../db/errors.ts";
import { MarketUnavailableError } from "../market/store-errors.ts";

/** "other" is the dashboard's sign-in (identity provider unreachable) and any 503 not named here. */
export const UNAVAILABLE_REASONS = [
  "shutting_down",
  "database_unreachable",
  "database_busy",
  "database_write_failing",
  "market_unavailable",
  "work_bound_full",
  "other",
] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

/**
 * The reason from what was thrown: the database conditions toHttpError maps to 503, and the market
 * store's. The admitted-work bound is named where it is thrown (src/http/metered.ts), which imports this.
 */
export function unavailableReason(thrown: unknown): UnavailableReason {
  if (thrown instanceof MarketUnavailableError) return "market_unavailable";
  const err = databaseError(thrown);
  if (err instanceof DatabaseUnavailableError) return "database_unreachable";
  // Before busy: a storage failure is a DatabaseBusyError too, but waiting does not clear a full disk.
  if (err instanceof DatabaseStorageError || writeFailureOf(err) !== null) return "database_write_failing";
  if (isBusy(err)) return "database_busy";
  return "other";
}
