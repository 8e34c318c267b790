/**
 * The meter on PostgreSQL (docs/api.md § Metering; README.md § PostgreSQL): the same rules as limiter.ts (sliding minute, UTC
 * day, refunds give the day back), shared by every instance on one database. Check and record are
 * one transaction serialised per user by a transaction-level advisory lock on the hashed user id:
 * it needs no users row, is released by COMMIT, ROLLBACK or a dropped connection, and two users
 * whose hashes collide merely wait for each other. The clock is read once the lock is held, so a
 * user's log order is commit order. The window arithmetic is windows.ts's decide(), unchanged.
 *
 * The lock is for the last slot. While another request holds it, a request looks at the windows
 * without it: a window already full is refused from that read (exact: only the lock's holder adds
 * counted rows, so what the read saw full was full at that moment), so a burst does not queue on
 * the lock and time out as 503s; otherwise it tries the lock again shortly, for at most lockWaitMs.
 *
 * Every call is async (the request path never blocks the event loop on the database). A lock or
 * statement timeout becomes DatabaseBusyError, an unreachable database DatabaseUnavailableError, storage
 * refusing writes DatabaseStorageError (both DatabaseBusyErrors too; database-errors.ts): all render as 503.
 */
import type { SQL } from "bun";
import type { Clock } from "../clock.ts";
import { denialMessage } from "./headers.ts";
import { auditParamsText } from "./redact-query.ts";
import { createAuditQueue } from "./audit-queue.ts";
import { pgAuditStatements } from "./audit-statements-pg.ts";
import { createUnauthenticatedCounter } from "./unauthenticated-counter.ts";
import { newBootId } from "./boot.ts";
import { DatabaseBusyError, databaseError, pgWriteFailureOf } from "../../db/errors.ts";
import type { AdmitRequest, AdmitResult, Finish, UnmeteredEntry } from "./limiter.ts";
import {
  decide,
  peekState,
  utcDayStart,
  MINUTE_MS,
  type Limits,
  type MeterState,
  type WindowDecision,
  type WindowInput,
} from "./windows.ts";

/** limiter.ts's Limiter, async: the interface the PostgreSQL meter (and a wrapped SQLite one) offers. */
export interface AsyncLimiter {
  peek(userId: string, limits: Limits): Promise<MeterState>;
  admit(req: AdmitRequest): Promise<AdmitResult>;
  finish(logId: number, status: number, durationMs: number, opts?: { refund?: boolean }): Promise<void>;
  /** The duration of a 429 (its row was written in admit's transaction), written by the next flush(). */
  finishRefused(logId: number, durationMs: number): void;
  logUnmetered(entry: UnmeteredEntry): Promise<number | null>;
  /** Writes what is waiting: outcomes not yet written, the unauthenticated counts, a probe while writes fail. */
  flush(): Promise<void>;
  /** Why writes are failing (e.g. `disk full (53100)`), null once one succeeds again. */
  writeFailure(): string | null;
}

interface WindowRow {
  n: number;
  oldest: string | null;
  kth: string | null;
  day: number | null;
}

type Denied = Extract<WindowDecision, { ok: false }>;

/** Pauses between tries of a held lock: short, as a holder keeps it about a millisecond. */
const FIRST_PAUSE_MS = 1;
const MAX_PAUSE_MS = 16;

export interface PgLimiterOptions {
  /**
   * How long a request may wait for its user's lock held by another (default 2000 ms, the pool's
   * default statement timeout); then DatabaseBusyError. A full window is refused before then.
   */
  lockWaitMs?: number;
}

/**
 * Creates the limiter over a pool (db/pg/open.ts sets its size and timeouts). `bootId` marks
 * the rows this process admits, so a crash's unanswered rows can be told apart (reconcile.ts).
 */
export function createPgLimiter(
  sql: SQL,
  clock: Clock,
  bootId: string = newBootId(),
  { lockWaitMs = 2000 }: PgLimiterOptions = {},
): AsyncLimiter {
  /**
   * Both windows in one statement, so one snapshot (a read without the lock must not mix two):
   * the minute's count, oldest entry and the entry decide() asks for on a denial (n − perMinute,
   * other than the oldest only after a user's limit was lowered), and the day's counter by key.
   */
  async function readWindows(q: SQL, userId: string, limits: Limits, now: number): Promise<WindowInput> {
    const after = now - MINUTE_MS;
    const day = utcDayStart(now);
    const [row] = (await q`WITH w AS (
        SELECT ts FROM request_log WHERE user_id = ${userId} AND counted = 1 AND ts > ${after})
      SELECT (SELECT count(*)::int FROM w) AS n,
        (SELECT min(ts) FROM w) AS oldest,
        (SELECT ts FROM w ORDER BY ts OFFSET greatest((SELECT count(*) FROM w) - ${limits.perMinute}, 0) LIMIT 1) AS kth,
        (SELECT admitted FROM usage_days WHERE user_id = ${userId} AND day = ${day}) AS day`) as WindowRow[];
    const { n, oldest, kth } = row!;
    const k = n - limits.perMinute;
    const nth = (i: number): number => {
      if (i === 0 && oldest !== null) return Number(oldest);
      if (i === k && k > 0 && kth !== null) return Number(kth);
      throw new Error(`minute window entry ${i} was not read`);
    };
    return { now, limits, minute: { count: n, nth }, dayCount: row!.day ?? 0 };
  }

  /**
   * Takes the user's lock, or refuses from a read while someone else holds it and the window is
   * full. Returns the decision made without the lock, or null once the lock is held.
   */
  async function lockOrRefuse(tx: SQL, req: AdmitRequest): Promise<Denied | null> {
    const deadline = performance.now() + lockWaitMs;
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
      const [t] = await tx`SELECT pg_try_advisory_xact_lock(hashtextextended(${req.userId}, 0)) AS got`;
      if (t!.got) return null;
      const d = decide(await readWindows(tx, req.userId, req.limits, clock.now()));
      if (!d.ok) return d;
      if (performance.now() + pause > deadline) throw new DatabaseBusyError();
      await Bun.sleep(pause * (0.5 + Math.random()));
    }
  }

  // The same queue and counter as SQLite's (the policy), written by this database's statements.
  const unauthenticated = createUnauthenticatedCounter(clock);
  const audit = createAuditQueue();
  const statements = pgAuditStatements(sql);
  let lastWriteFailure: string | null = null;
  /** Outcomes of answered requests not yet written (database down or full); flush() retries them in order. */
  const unfinished: Finish[] = [];

  /** Runs a database call: maps driver errors to the meter's; a write's outcome sets or clears writeFailure(). */
  async function guarded<T>(run: () => Promise<T>, writes = true): Promise<T> {
    try {
      const result = await run();
      if (writes) lastWriteFailure = null;
      return result;
    } catch (err) {
      lastWriteFailure = pgWriteFailureOf(err) ?? lastWriteFailure;
      throw databaseError(err);
    }
  }

  /**
   * A refund is one statement, so atomic without a transaction: counted 0, row kept, the day's
   * count given back. Its row lock (FOR UPDATE) makes a repeated refund of the same row (a retry
   * from flush) see counted = 0 and give nothing back twice.
   */
  async function finishOnce({ logId, status, durationMs, refund }: Finish): Promise<void> {
    if (!refund) {
      await sql`UPDATE request_log SET status = ${status}, duration_ms = ${durationMs} WHERE id = ${logId}`;
      return;
    }
    await sql`WITH old AS (
        SELECT user_id, ts, counted FROM request_log WHERE id = ${logId} FOR UPDATE),
      upd AS (
        UPDATE request_log SET status = ${status}, duration_ms = ${durationMs}, counted = 0 WHERE id = ${logId})
      UPDATE usage_days u SET admitted = u.admitted - 1 FROM old
      WHERE old.counted = 1 AND u.user_id = old.user_id AND u.day = old.ts - old.ts % ${86_400_000}`;
  }

  return {
    peek: (userId, limits) => guarded(async () => peekState(await readWindows(sql, userId, limits, clock.now())), false),

    admit: (req) =>
      guarded(() =>
        sql.begin(async (tx): Promise<AdmitResult> => {
          const params = auditParamsText(req.params);
          const early = await lockOrRefuse(tx, req);
          const now = early?.state.now ?? clock.now();
          const d = early ?? decide(await readWindows(tx, req.userId, req.limits, now));
          if (d.ok) {
            // The audit row and the day's counter in one statement: one round trip fewer.
            const [r] = await tx`WITH ins AS (
                INSERT INTO request_log (request_id, user_id, ts, counted, params, boot_id)
                VALUES (${req.requestId}, ${req.userId}, ${now}, 1, ${params}, ${bootId}) RETURNING id),
              up AS (
                INSERT INTO usage_days (user_id, day, admitted) VALUES (${req.userId}, ${utcDayStart(now)}, 1)
                ON CONFLICT (user_id, day) DO UPDATE SET admitted = usage_days.admitted + 1)
              SELECT id FROM ins`;
            return { ok: true, logId: Number(r!.id), state: d.state };
          }
          const [r] = await tx`INSERT INTO request_log (request_id, user_id, ts, status, counted, code, params)
            VALUES (${req.requestId}, ${req.userId}, ${now}, 429, 0, ${d.code}, ${params}) RETURNING id`;
          const message = denialMessage(d.code, { ...d.state, retryAfter: d.retryAfter });
          return { ok: false, code: d.code, retryAfter: d.retryAfter, message, state: d.state, logId: Number(r!.id) };
        }),
      ),

    /**
     * Records the final status and duration; a 5xx or `refund: true` refunds it (finishOnce). When
     * the database is down, locked or refuses writes, the outcome waits for flush() instead of
     * failing the answer: the row keeps counting until then, never twice.
     */
    async finish(logId, status, durationMs, opts) {
      const job: Finish = { logId, status, durationMs, refund: status >= 500 || opts?.refund === true };
      try {
        await guarded(() => finishOnce(job));
      } catch (err) {
        if (!(err instanceof DatabaseBusyError) && lastWriteFailure === null) throw err;
        unfinished.push(job);
      }
    },

    finishRefused(logId, durationMs) {
      audit.setDuration(logId, durationMs);
    },

    // Nothing is written on the request path, as on SQLite: a known user's row waits in the audit
    // queue, an unknown caller is only counted per minute and code; flush() writes both.
    async logUnmetered(e) {
      if (e.userId === null) unauthenticated.add(e.code ?? String(e.status));
      else
        audit.add({
          requestId: e.requestId,
          userId: e.userId,
          ts: clock.now(),
          status: e.status,
          code: e.code,
          params: auditParamsText(e.params),
          durationMs: e.durationMs,
        });
      return null;
    },

    async flush() {
      while (unfinished.length > 0) {
        await guarded(() => finishOnce(unfinished[0]!));
        unfinished.shift();
      }
      if (audit.pending() > 0) await guarded(() => audit.flushAsync(statements.writeAudit));
      if (unauthenticated.pending() > 0) await guarded(() => unauthenticated.flushAsync(statements.writeCounts));
      // While writes fail and nothing else is waiting, a one-row write finds out when they work again.
      if (lastWriteFailure !== null) {
        await guarded(
          () => sql`INSERT INTO settings (key, value) VALUES ('write_probe', ${String(clock.now())})
          ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        );
      }
    },

    writeFailure: () => lastWriteFailure,
  };
}
