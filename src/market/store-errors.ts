/**
 * Which store failures are the database's condition (unreachable, restarting, timed out) rather
 * than a bug: the chart service answers those 503 so clients retry, and the instance recovers by
 * itself when PostgreSQL is back. SQLite's own conditions are mapped by the route as before.
 */

/** The market store cannot answer now (src/http/http-error.ts makes it a 503 with Retry-After). */
export class MarketUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`market data unavailable (${reason}); retry shortly`);
    this.name = "MarketUnavailableError";
  }
}

// SQLSTATE class 08 (connection), 57P0x (shutdown), 57014 (statement timeout / cancel).
const UNAVAILABLE_STATE = /^08|^57P0|^57014$/;
const UNAVAILABLE_CODE = /CONNECTION|ECONNREFUSED|ECONNRESET|TIMEOUT|ENOTFOUND|EPIPE/i;

/** A short reason when `err` says the PostgreSQL store cannot be reached now; null otherwise. */
export function storeUnavailable(err: unknown): string | null {
  const state = String((err as { errno?: unknown })?.errno ?? "");
  const code = String((err as { code?: unknown })?.code ?? "");
  if (state === "57014") return "database statement timed out";
  if (UNAVAILABLE_STATE.test(state) || UNAVAILABLE_CODE.test(code)) return "database unreachable";
  return null;
}

/** `err` as a MarketUnavailableError when it is the store's condition; otherwise unchanged. */
export function storeFailure(err: unknown): unknown {
  const why = storeUnavailable(err);
  return why === null ? err : new MarketUnavailableError(why);
}
