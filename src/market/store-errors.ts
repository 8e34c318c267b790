/**
 * Which store failures are the database's condition (unreachable, restarting, timed out) rather
 * than a bug: the chart service answers those 503 so clients retry, and the instance recovers by
 * itself when PostgreSQL is back. SQLite's own conditions are mapped by the route as before.
 */
import { DatabaseBusyError, DatabaseStorageError, DatabaseUnavailableError, databaseError } from "../../db/errors.ts";
import { StatusError } from "../status-error.ts";

/** The market store cannot answer now: a 503 with Retry-After. */
export class MarketUnavailableError extends StatusError {
  constructor(readonly reason: string) {
    super(503, "SERVICE_UNAVAILABLE", `market data unavailable (${reason}); retry shortly`, { "Retry-After": "5" });
    this.name = "MarketUnavailableError";
  }
}

/** A short reason when `err` says the store cannot answer now (db/errors.ts decides which); null otherwise. */
export function storeUnavailable(err: unknown): string | null {
  const e = databaseError(err);
  if (e instanceof DatabaseUnavailableError) return "database unreachable";
  if (e instanceof DatabaseStorageError) return `database cannot write: ${e.failure}`;
  if (e instanceof DatabaseBusyError) return "database busy or statement timed out";
  return null;
}

/** `err` as a MarketUnavailableError when it is the store's condition; otherwise unchanged. */
export function storeFailure(err: unknown): unknown {
  const why = storeUnavailable(err);
  return why === null ? err : new MarketUnavailableError(why);
}
