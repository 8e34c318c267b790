/**
 * The meter on SQLite (docs/api.md § Metering). Check and record happen in one BEGIN IMMEDIATE transaction,
 * so several server processes on one database file never admit more than the limits allow.
 * Table `request_log` is both the audit log and the meter: rows with counted = 1 consume the windows.
 */
import type { Database } from "bun:sqlite";
import type { Clock } from "../clock.ts";
import { denialMessage } from "./headers.ts";
import { auditParamsText } from "./redact-query.ts";
import { newBootId } from "./boot.ts";
import { isBusy, DatabaseBusyError, writeFailureOf } from "../../db/errors.ts";
import { createUnauthenticatedCounter } from "./unauthenticated-counter.ts";
import { createAuditQueue } from "./audit-queue.ts";
import { sqliteAuditStatements } from "./audit-statements-sqlite.ts";
import {
  decide,
  peekState,
  utcDayStart,
  MINUTE_MS,
  type DenialCode,
  type Limits,
  type MeterState,
  type MinuteWindow,
  type WindowInput,
} from "./windows.ts";

export type AdmitResult =
  | { ok: true; logId: number; state: MeterState }
  | { ok: false; code: DenialCode; retryAfter: number; message: string; state: MeterState; logId: number };

export interface AdmitRequest {
  userId: string;
  limits: Limits;
  requestId: string;
  /** Effective request parameters for the audit log; stored as JSON unless already a string. */
  params: unknown;
}

export interface UnmeteredEntry {
  userId: string | null;
  requestId: string;
  status: number;
  code: string | null;
  params: unknown;
  durationMs: number;
}

export interface Limiter {
  peek(userId: string, limits: Limits): MeterState;
  admit(req: AdmitRequest): AdmitResult;
  finish(logId: number, status: number, durationMs: number, opts?: { refund?: boolean }): void;
  /** The duration of a 429 (its row was written in admit's transaction); queued like logUnmetered's rows. */
  finishRefused(logId: number, durationMs: number): void;
  /**
   * Logs a live request that is never metered. A known user's (400/403/404) is queued in memory
   * and written by flush() (audit-queue.ts); without a user (401) it is only counted per minute
   * and code. Nothing is written on the request path, so nothing waits for a lock: returns null.
   */
  logUnmetered(entry: UnmeteredEntry): number | null;
  /**
   * Writes what is waiting: outcomes that could not be written when the request was answered,
   * the queued audit rows, the unauthenticated counts, and while writes fail, a probe (server:
   * every second and at shutdown). With `noWait`, a locked database fails at once (SQLITE_BUSY)
   * instead of waiting busy_timeout on the event loop; what was not written waits for the next flush.
   */
  flush(opts?: { noWait?: boolean }): void;
  /** Refused requests counted in aggregate since the last call because the audit queue was full. */
  takeAggregated(): number;
  /** Called when an audit row is queued (the server schedules a flush after the current answers). */
  whenQueued(listener: () => void): void;
  /** Why writes are failing (e.g. `disk full (SQLITE_FULL)`), null once one succeeds again. */
  writeFailure(): string | null;
}

/** One retry after busy_timeout: the server keeps busy_timeout short and answers 503 rather than stall. */
const BUSY_RETRIES = 1;

/** An admitted request's outcome, written when the database takes it (held while writes fail). */
export interface Finish {
  logId: number;
  status: number;
  durationMs: number;
  refund: boolean;
}

/**
 * Creates the limiter over an open database (see db/open.ts for busy_timeout and WAL). `bootId`
 * marks the rows this process admits, so a crash's unanswered rows can be told apart (reconcile.ts).
 */
export function createLimiter(sqlite: Database, clock: Clock, bootId: string = newBootId()): Limiter {
  const begin = sqlite.prepare("BEGIN IMMEDIATE");
  const commit = sqlite.prepare("COMMIT");
  const rollback = sqlite.prepare("ROLLBACK");
  // Aggregates over the (user_id, counted, ts) index: a user with thousands of requests in the
  // window (raised limits) costs an index count, not thousands of rows copied into JS.
  const minuteAgg = sqlite.prepare<{ n: number; oldest: number | null }, [string, number]>(
    "SELECT count(*) AS n, min(ts) AS oldest FROM request_log WHERE user_id = ? AND counted = 1 AND ts > ?",
  );
  const minuteNth = sqlite.prepare<{ ts: number }, [string, number, number]>(
    "SELECT ts FROM request_log WHERE user_id = ? AND counted = 1 AND ts > ? ORDER BY ts LIMIT 1 OFFSET ?",
  );
  const dayCount = sqlite.prepare<{ n: number }, [string, number]>("SELECT admitted AS n FROM usage_days WHERE user_id = ? AND day = ?");
  const countDay = sqlite.prepare<unknown, [string, number, number]>(
    "INSERT INTO usage_days (user_id, day, admitted) VALUES (?1, ?2, ?3) ON CONFLICT (user_id, day) DO UPDATE SET admitted = admitted + ?3",
  );
  const loggedRow = sqlite.prepare<{ userId: string | null; ts: number; counted: number }, [number]>(
    "SELECT user_id AS userId, ts, counted FROM request_log WHERE id = ?",
  );
  const insert = sqlite.prepare<
    { id: number },
    [string, string | null, number, number | null, number | null, number, string | null, string, string | null]
  >(
    "INSERT INTO request_log (request_id, user_id, ts, status, duration_ms, counted, code, params, boot_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
  );
  const finishStmt = sqlite.prepare(
    "UPDATE request_log SET status = ?1, duration_ms = ?2, counted = CASE WHEN ?1 >= 500 OR ?4 THEN 0 ELSE counted END WHERE id = ?3",
  );

  const unauthenticated = createUnauthenticatedCounter(clock);
  const audit = createAuditQueue();
  const statements = sqliteAuditStatements(sqlite);
  let aggregated = 0;
  let queued = () => {};

  const probe = sqlite.prepare<unknown, [string]>(
    "INSERT INTO settings (key, value) VALUES ('write_probe', ?1) ON CONFLICT (key) DO UPDATE SET value = ?1",
  );
  /** Set by a write the storage refused (full disk…), cleared by the next write that succeeds. */
  let lastWriteFailure: string | null = null;
  /** Outcomes of answered requests not yet written (database locked or full); flush() retries them in order. */
  const unfinished: Finish[] = [];

  function tracked<T>(write: () => T): T {
    try {
      const result = write();
      lastWriteFailure = null;
      return result;
    } catch (err) {
      lastWriteFailure = writeFailureOf(err) ?? lastWriteFailure;
      throw err;
    }
  }

  function finishOnce({ logId, status, durationMs, refund }: Finish): void {
    if (!refund) {
      finishStmt.run(status, durationMs, logId, 0);
      return;
    }
    // A refund gives the day's count back too, in the same transaction as the log row.
    begin.run();
    try {
      const row = loggedRow.get(logId);
      finishStmt.run(status, durationMs, logId, 1);
      if (row?.counted === 1 && row.userId !== null) countDay.run(row.userId, utcDayStart(row.ts), -1);
      commit.run();
    } catch (err) {
      if (sqlite.inTransaction) rollback.run();
      throw err;
    }
  }

  function minuteWindow(userId: string, after: number): MinuteWindow {
    const { n, oldest } = minuteAgg.get(userId, after)!;
    return { count: n, nth: (k) => (k === 0 && oldest !== null ? oldest : minuteNth.get(userId, after, k)!.ts) };
  }

  function windowInput(userId: string, limits: Limits, now: number): WindowInput {
    return {
      now,
      limits,
      minute: minuteWindow(userId, now - MINUTE_MS),
      dayCount: dayCount.get(userId, utcDayStart(now))?.n ?? 0,
    };
  }

  function admitOnce(req: AdmitRequest): AdmitResult {
    begin.run();
    try {
      // Read the clock only once the write lock is held, so log order matches commit order.
      const now = clock.now();
      const d = decide(windowInput(req.userId, req.limits, now));
      const params = auditParamsText(req.params);
      const logId = d.ok
        ? insert.get(req.requestId, req.userId, now, null, null, 1, null, params, bootId)!.id
        : insert.get(req.requestId, req.userId, now, 429, null, 0, d.code, params, null)!.id;
      if (d.ok) countDay.run(req.userId, utcDayStart(now), 1);
      commit.run();
      if (d.ok) return { ok: true, logId, state: d.state };
      const message = denialMessage(d.code, { ...d.state, retryAfter: d.retryAfter });
      return { ok: false, code: d.code, retryAfter: d.retryAfter, message, state: d.state, logId };
    } catch (err) {
      if (sqlite.inTransaction) rollback.run();
      throw err;
    }
  }

  return {
    /** Current state without writing anything (headers for 400 responses). */
    peek(userId, limits) {
      return peekState(windowInput(userId, limits, clock.now()));
    },

    /** Checks both windows and records the request (admitted: counted 1; denied: 429, counted 0) atomically. */
    admit(req) {
      for (let attempt = 0; ; attempt++) {
        try {
          return tracked(() => admitOnce(req));
        } catch (err) {
          if (!isBusy(err)) throw err;
          if (attempt >= BUSY_RETRIES) throw new DatabaseBusyError();
        }
      }
    },

    /**
     * Records the final status and duration. A 5xx, or `refund: true` (an admitted request that
     * was not served, e.g. a 4xx found after admission), refunds it: counted 0, row kept. When the
     * database is locked or refuses writes, the outcome waits for flush() instead of failing the answer.
     */
    finish(logId, status, durationMs, opts) {
      const job: Finish = { logId, status, durationMs, refund: status >= 500 || opts?.refund === true };
      try {
        tracked(() => finishOnce(job));
      } catch (err) {
        // The answer stands and the row keeps counting; its outcome is written once the database takes writes.
        if (!isBusy(err) && writeFailureOf(err) === null) throw err;
        unfinished.push(job);
      }
    },

    finishRefused(logId, durationMs) {
      audit.setDuration(logId, durationMs);
      queued();
    },

    logUnmetered(e) {
      if (e.userId === null) unauthenticated.add(e.code ?? String(e.status));
      else {
        const row = {
          requestId: e.requestId,
          userId: e.userId,
          ts: clock.now(),
          status: e.status,
          code: e.code,
          params: auditParamsText(e.params),
          durationMs: e.durationMs,
        };
        if (!audit.add(row)) aggregated++;
        queued();
      }
      return null;
    },

    flush(opts) {
      if (!opts?.noWait) return flushAll();
      // busy_timeout is the connection's; nothing else runs on this thread until it is restored.
      const previous = (sqlite.query("PRAGMA busy_timeout").get() as { timeout: number }).timeout;
      sqlite.exec("PRAGMA busy_timeout = 0");
      try {
        flushAll();
      } finally {
        sqlite.exec(`PRAGMA busy_timeout = ${previous}`);
      }
    },

    whenQueued(listener) {
      queued = listener;
    },

    takeAggregated() {
      const n = aggregated;
      aggregated = 0;
      return n;
    },

    writeFailure: () => lastWriteFailure,
  };

  function flushAll(): void {
    while (unfinished.length > 0) {
      tracked(() => finishOnce(unfinished[0]!));
      unfinished.shift();
    }
    if (audit.pending() > 0) tracked(() => audit.flush(statements.writeAudit));
    if (unauthenticated.pending() > 0) tracked(() => unauthenticated.flush(statements.writeCounts));
    // While writes fail and nothing else is waiting to be written, a one-row write finds out when they work again.
    if (lastWriteFailure !== null) tracked(() => probe.run(String(clock.now())));
  }
}
