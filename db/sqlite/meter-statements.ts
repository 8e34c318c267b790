/**
 * The meter's statements on SQLite (meter-port.ts). Check and record happen in one BEGIN IMMEDIATE
 * transaction, so several server processes on one database file never admit more than the limits
 * allow. Table `request_log` is both the audit log and the meter: rows with counted = 1 consume
 * the windows. Every transaction is synchronous and complete: none stays open across an await.
 *
 * bun:sqlite waits for a lock on the event loop, so admit never lets SQLite wait: it tries the
 * write lock with busy_timeout 0 and, while another process holds it, refuses from a plain read a
 * window already full (WAL reads do not wait for the writer; exact, as in db/pg/meter-statements.ts: only the
 * lock's holder adds counted rows) or pauses off the loop and tries again, for at most lockWaitMs.
 * Waiting with busy_timeout instead held /health for 1.7-2.0 s behind one live request (issue #41).
 */
import type { Database } from "bun:sqlite";
import { DatabaseBusyError, isBusy } from "../errors.ts";
import { waiting as waitingFor } from "./open.ts";
import type { Clock } from "../../src/clock.ts";
import { sqliteAuditStatements } from "./audit-statements.ts";
import type { AdmitRequest } from "../../src/metering/meter.ts";
import type { MeterPort } from "../../src/metering/meter-port.ts";
import {
  MINUTE_MS,
  utcDayStart,
  type Limits,
  type MinuteWindow,
  type WindowDecision,
  type WindowInput,
} from "../../src/metering/windows.ts";

/** Pauses between tries of a held write lock, as db/pg/meter-statements.ts's. */
const FIRST_PAUSE_MS = 1;
const MAX_PAUSE_MS = 16;

export interface SqliteMeterOptions {
  /** How long an admission may wait, off the event loop, for another process's write lock (default 2000 ms); then DatabaseBusyError. */
  lockWaitMs?: number;
}

export function sqliteMeterPort(sqlite: Database, clock: Clock, bootId: string, { lockWaitMs = 2000 }: SqliteMeterOptions = {}): MeterPort {
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
    [
      string,
      string | null,
      number,
      number | null,
      number | null,
      number,
      string | null,
      string,
      string | null,
      number | null,
      string | null,
    ]
  >(
    "INSERT INTO request_log (request_id, user_id, ts, status, duration_ms, counted, code, params, boot_id, cost_ms, plan) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
  );
  const finishStmt = sqlite.prepare(
    "UPDATE request_log SET status = ?1, duration_ms = ?2, counted = CASE WHEN ?1 >= 500 OR ?4 THEN 0 ELSE counted END WHERE id = ?3",
  );
  const probe = sqlite.prepare<unknown, [string]>(
    "INSERT INTO settings (key, value) VALUES ('write_probe', ?1) ON CONFLICT (key) DO UPDATE SET value = ?1",
  );
  const audit = sqliteAuditStatements(sqlite);
  // The first admitted row registers the process (reconcile.ts); later ones only check this flag.
  let registered = false;
  const register = sqlite.prepare<unknown, [string, number, number]>(
    "INSERT INTO boots (boot_id, low_id, seen_at) VALUES (?1, ?2, ?3) ON CONFLICT (boot_id) DO NOTHING",
  );
  const settle = sqlite.prepare<unknown, [string, number, number]>(
    "INSERT INTO boots (boot_id, low_id, seen_at) VALUES (?1, ?2, ?3) ON CONFLICT (boot_id) DO UPDATE SET low_id = ?2, seen_at = ?3",
  );

  function transaction<T>(run: () => T): T {
    begin.run();
    try {
      const result = run();
      commit.run();
      return result;
    } catch (err) {
      if (sqlite.inTransaction) rollback.run();
      throw err;
    }
  }

  const waiting = <T>(wait: boolean, run: () => T): T => waitingFor(sqlite, wait, run);

  function minuteWindow(userId: string, after: number): MinuteWindow {
    const { n, oldest } = minuteAgg.get(userId, after)!;
    return { count: n, nth: (k) => (k === 0 && oldest !== null ? oldest : minuteNth.get(userId, after, k)!.ts) };
  }

  function windows(userId: string, limits: Limits, now: number): WindowInput {
    return { now, limits, minute: minuteWindow(userId, now - MINUTE_MS), dayCount: dayCount.get(userId, utcDayStart(now))?.n ?? 0 };
  }

  /** Check and record in one transaction, or SQLITE_BUSY at once when another holds the write lock. */
  function admitNow(req: AdmitRequest, params: string, decide: (input: WindowInput) => WindowDecision) {
    const result = waiting(false, () =>
      transaction(() => {
        // The clock is read once the write lock is held, so log order matches commit order.
        const now = clock.now();
        const decision = decide(windows(req.userId, req.limits, now));
        const logId = decision.ok
          ? insert.get(
              req.requestId,
              req.userId,
              now,
              req.answered ?? null,
              null,
              1,
              null,
              params,
              bootId,
              req.cost ?? null,
              req.plan ?? null,
            )!.id
          : insert.get(req.requestId, req.userId, now, 429, null, 0, decision.code, params, null, null, null)!.id;
        if (decision.ok) countDay.run(req.userId, utcDayStart(now), 1);
        if (decision.ok && !registered) register.run(bootId, logId, now);
        return { decision, logId };
      }),
    );
    if (result.decision.ok) registered = true;
    return result;
  }

  /** The decision a plain read allows while the write lock is elsewhere: a denial, or null (try the lock again). */
  function refusal(req: AdmitRequest, decide: (input: WindowInput) => WindowDecision): WindowDecision | null {
    try {
      const d = waiting(false, () => decide(windows(req.userId, req.limits, clock.now())));
      return d.ok ? null : d;
    } catch (err) {
      if (isBusy(err)) return null;
      throw err;
    }
  }

  return {
    windows,
    admit: async (req, params, decide) => {
      const deadline = performance.now() + lockWaitMs;
      for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
        // A client gone while this waited is not admitted (docs/api.md § The audit log: 499, counted 0).
        req.signal?.throwIfAborted();
        try {
          return admitNow(req, params, decide);
        } catch (err) {
          if (!isBusy(err)) throw err;
        }
        const early = refusal(req, decide);
        if (early) return { decision: early, logId: null };
        if (performance.now() + pause > deadline) throw new DatabaseBusyError();
        await Bun.sleep(pause * (0.5 + Math.random()));
      }
    },
    finish: ({ logId, status, durationMs, refund }, wait) =>
      waiting(wait, () => {
        if (!refund) {
          finishStmt.run(status, durationMs, logId, 0);
          return;
        }
        // A refund gives the day's count back too, in the same transaction as the log row, once.
        transaction(() => {
          const row = loggedRow.get(logId);
          finishStmt.run(status, durationMs, logId, 1);
          if (row?.counted === 1 && row.userId !== null) countDay.run(row.userId, utcDayStart(row.ts), -1);
        });
      }),
    writeAudit: (batch, wait) => waiting(wait, () => audit.writeAudit(batch)),
    writeCounts: (counts, wait) => waiting(wait, () => audit.writeCounts(counts)),
    probe: (now, wait) =>
      waiting(wait, () => {
        probe.run(String(now));
      }),
    settle: (lowId, now, wait) =>
      waiting(wait, () => {
        settle.run(bootId, lowId, now);
      }),
  };
}
