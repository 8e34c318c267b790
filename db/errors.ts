/**
 * Which database errors are the database's condition rather than a bug (docs/api.md § Errors: 503, not
 * 500): another process holding the lock, storage refusing writes (a full disk, an I/O error, a
 * read-only file), or PostgreSQL out of reach. Every store (the meter, users, tokens, sessions) on
 * either database names its condition with these classes, without HTTP codes;
 * src/http/http-error.ts renders them as 503 with Retry-After.
 */

/** The database stayed locked beyond its timeout and the retries. */
export class DatabaseBusyError extends Error {
  constructor() {
    super("the database is busy; retry the request shortly");
    this.name = "DatabaseBusyError";
  }
}

/** The database could not be reached (down, restarting, network). */
export class DatabaseUnavailableError extends DatabaseBusyError {
  constructor() {
    super();
    this.message = "the database is unreachable; retry the request shortly";
    this.name = "DatabaseUnavailableError";
  }
}

/** Storage refusing writes (full disk, read-only database…), like a full SQLite disk. */
export class DatabaseStorageError extends DatabaseBusyError {
  constructor(readonly failure: string) {
    super();
    this.message = `the database cannot write (${failure}); retry the request shortly`;
    this.name = "DatabaseStorageError";
  }
}

/**
 * The driver's own error: drizzle wraps it (DrizzleQueryError, the SQLSTATE or SQLite code in
 * `.cause`), so a store's timeout would otherwise read as a bug and answer 500.
 */
function driverError(err: unknown): unknown {
  let e = err;
  for (let depth = 0; depth < 4; depth++) {
    const own = e as { code?: unknown; errno?: unknown; cause?: unknown } | null;
    if (own == null || typeof own !== "object" || own.code !== undefined || own.errno !== undefined) return e;
    if (own.cause === undefined) return e;
    e = own.cause;
  }
  return e;
}

const codeOf = (err: unknown): string => {
  const code = (driverError(err) as { code?: unknown })?.code;
  return typeof code === "string" ? code : "";
};

/** The one test for "locked, retry shortly": the meter's own busy errors or SQLite's BUSY/LOCKED. */
export const isBusy = (err: unknown): boolean => err instanceof DatabaseBusyError || /^SQLITE_(BUSY|LOCKED)/.test(codeOf(err));

const WRITE_FAILURES: [RegExp, string][] = [
  [/^SQLITE_FULL/, "disk full"],
  [/^SQLITE_IOERR/, "I/O error"],
  [/^SQLITE_READONLY/, "database is read-only"],
  [/^SQLITE_CANTOPEN/, "database file cannot be opened"],
];

/**
 * A short description of a storage failure on either database, e.g. `disk full (SQLITE_FULL)` or
 * `disk full (53100)`; null for anything else.
 */
export function writeFailureOf(err: unknown): string | null {
  if (err instanceof DatabaseStorageError) return err.failure;
  const code = codeOf(err);
  for (const [re, what] of WRITE_FAILURES) if (re.test(code)) return `${what} (${code})`;
  return pgWriteFailureOf(err);
}

// SQLSTATEs: 57014 statement timeout / cancel, 55P03 lock not available, 40001 / 40P01 serialization
// failure / deadlock; class 08 and 57P0x are connection failures and server shutdown.
const PG_BUSY_STATES = new Set(["57014", "55P03", "40001", "40P01"]);
/** PostgreSQL's SQLSTATE; "" for SQLite's errors, whose numeric errno could look like one. */
const sqlState = (err: unknown): string =>
  codeOf(err).startsWith("SQLITE_") ? "" : String((driverError(err) as { errno?: unknown })?.errno ?? "");

const PG_WRITE_FAILURES: [RegExp, string][] = [
  [/^53100$/, "disk full"],
  [/^53/, "insufficient resources"],
  [/^58/, "I/O error"],
  [/^25006$/, "database is read-only"],
];

/** PostgreSQL's storage failures, e.g. `disk full (53100)`. */
function pgWriteFailureOf(err: unknown): string | null {
  const state = sqlState(err);
  for (const [re, what] of PG_WRITE_FAILURES) if (re.test(state)) return `${what} (${state})`;
  return null;
}

/**
 * Maps PostgreSQL driver errors to the classes above; SQLite's and anything else (a bug) are
 * returned as they are. Every store's errors pass through it: an outage seen by the auth store is the same 503.
 */
export function databaseError(err: unknown): unknown {
  if (err instanceof DatabaseBusyError) return err;
  // SQLite's conditions are read by isBusy and writeFailureOf; its codes (SQLITE_BUSY_TIMEOUT) would match the patterns below.
  if (codeOf(err).startsWith("SQLITE_")) return err;
  const state = sqlState(err);
  if (PG_BUSY_STATES.has(state)) return new DatabaseBusyError();
  const failure = pgWriteFailureOf(err);
  if (failure !== null) return new DatabaseStorageError(failure);
  const code = codeOf(err);
  if (/^08|^57P0/.test(state) || /CONNECTION|ECONNREFUSED|ECONNRESET|TIMEOUT|ENOTFOUND|EPIPE/i.test(code))
    return new DatabaseUnavailableError();
  return err;
}
