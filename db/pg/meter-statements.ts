/**
 * The meter's statements on PostgreSQL (meter-port.ts), shared by every instance on one database.
 * Check and record are one transaction serialised per user by a transaction-level advisory lock on
 * the hashed user id: it needs no users row, is released by COMMIT, ROLLBACK or a dropped
 * connection, and two users whose hashes collide merely wait for each other. The clock is read
 * once the lock is held, so a user's log order is commit order.
 *
 * The lock is for the last slot. While another request holds it, a request looks at the windows
 * without it: a window already full is refused from that read (exact: only the lock's holder adds
 * counted rows, so what the read saw full was full at that moment), so a burst does not queue on
 * the lock and time out as 503s; otherwise it tries the lock again shortly, for at most lockWaitMs.
 */
import type { SQL } from "bun";
import { DatabaseBusyError } from "../errors.ts";
import type { Clock } from "../../src/clock.ts";
import { pgAuditStatements } from "./audit-statements.ts";
import type { AdmitRequest, Finish } from "../../src/metering/meter.ts";
import type { MeterPort } from "../../src/metering/meter-port.ts";
import { MINUTE_MS, utcDayStart, type Limits, type WindowDecision, type WindowInput } from "../../src/metering/windows.ts";

interface WindowRow {
  n: number;
  oldest: string | null;
  kth: string | null;
  day: number | null;
}

/** Pauses between tries of a held lock: short, as a holder keeps it about a millisecond. */
const FIRST_PAUSE_MS = 1;
const MAX_PAUSE_MS = 16;

export interface PgMeterOptions {
  /**
   * How long a request may wait for its user's lock held by another (default 2000 ms, the pool's
   * default statement timeout); then DatabaseBusyError. A full window is refused before then.
   */
  lockWaitMs?: number;
}

export function pgMeterPort(sql: SQL, clock: Clock, bootId: string, { lockWaitMs = 2000 }: PgMeterOptions = {}): MeterPort {
  const audit = pgAuditStatements(sql);
  let registered = false;

  /**
   * Both windows in one statement, so one snapshot (a read without the lock must not mix two):
   * the minute's count, oldest entry and the entry decide() asks for on a denial (n − perMinute,
   * other than the oldest only after a user's limit was lowered), and the day's counter by key.
   */
  async function windows(q: SQL, userId: string, limits: Limits, now: number): Promise<WindowInput> {
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
  async function lockOrRefuse(tx: SQL, req: AdmitRequest, decide: (input: WindowInput) => WindowDecision): Promise<WindowDecision | null> {
    const deadline = performance.now() + lockWaitMs;
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
      // A client gone while this waited is not admitted (docs/api.md § The audit log: 499, counted 0).
      req.signal?.throwIfAborted();
      const [t] = await tx`SELECT pg_try_advisory_xact_lock(hashtextextended(${req.userId}, 0)) AS got`;
      if (t!.got) return null;
      const d = decide(await windows(tx, req.userId, req.limits, clock.now()));
      if (!d.ok) return d;
      if (performance.now() + pause > deadline) throw new DatabaseBusyError();
      await Bun.sleep(pause * (0.5 + Math.random()));
    }
  }

  /**
   * A refund's row lock (FOR UPDATE) makes a repeated refund of the same row (a retry from flush)
   * see counted = 0 and give nothing back twice; the day's count is given back in the same transaction.
   */
  async function finish({ logId, status, durationMs, refund }: Finish): Promise<void> {
    if (!refund) {
      await sql`UPDATE request_log SET status = ${status}, duration_ms = ${durationMs} WHERE id = ${logId}`;
      return;
    }
    await sql.begin(async (tx) => {
      const [old] = (await tx`SELECT user_id AS "userId", ts::float8 AS ts, counted FROM request_log WHERE id = ${logId} FOR UPDATE`) as {
        userId: string | null;
        ts: number;
        counted: number;
      }[];
      await tx`UPDATE request_log SET status = ${status}, duration_ms = ${durationMs}, counted = 0 WHERE id = ${logId}`;
      if (old?.counted === 1 && old.userId !== null)
        await tx`UPDATE usage_days SET admitted = admitted - 1 WHERE user_id = ${old.userId} AND day = ${utcDayStart(old.ts)}`;
    });
  }

  return {
    windows: (userId, limits, now) => windows(sql, userId, limits, now),
    // The wait for another's lock happens inside admit (lockOrRefuse), bounded by lockWaitMs.
    admit: async (req, params, decide) => {
      const result = await sql.begin(async (tx) => {
        const early = await lockOrRefuse(tx, req, decide);
        const now = early?.state.now ?? clock.now();
        const decision = early ?? decide(await windows(tx, req.userId, req.limits, now));
        if (decision.ok) {
          // The audit row and the day's counter in one statement: one round trip fewer.
          const [r] = await tx`WITH ins AS (
              INSERT INTO request_log (request_id, user_id, ts, status, counted, params, boot_id, cost_ms, plan)
              VALUES (${req.requestId}, ${req.userId}, ${now}, ${req.answered ?? null}, 1, ${params}, ${bootId}, ${req.cost ?? null}, ${req.plan ?? null})
              RETURNING id),
            up AS (
              INSERT INTO usage_days (user_id, day, admitted) VALUES (${req.userId}, ${utcDayStart(now)}, 1)
              ON CONFLICT (user_id, day) DO UPDATE SET admitted = usage_days.admitted + 1)
            SELECT id FROM ins`;
          const logId = Number(r!.id);
          // The first admitted row registers the process (reconcile.ts); later ones only check the flag.
          if (!registered)
            await tx`INSERT INTO boots (boot_id, low_id, seen_at) VALUES (${bootId}, ${logId}, ${now}) ON CONFLICT (boot_id) DO NOTHING`;
          return { decision, logId };
        }
        const [r] = await tx`INSERT INTO request_log (request_id, user_id, ts, status, counted, code, params)
          VALUES (${req.requestId}, ${req.userId}, ${now}, 429, 0, ${decision.code}, ${params}) RETURNING id`;
        return { decision, logId: Number(r!.id) };
      });
      if (result.decision.ok) registered = true;
      return result;
    },
    finish: (job) => finish(job),
    writeAudit: (batch) => audit.writeAudit(batch),
    writeCounts: (counts) => audit.writeCounts(counts),
    settle: async (lowId, now) => {
      await sql`INSERT INTO boots (boot_id, low_id, seen_at) VALUES (${bootId}, ${lowId}, ${now})
        ON CONFLICT (boot_id) DO UPDATE SET low_id = excluded.low_id, seen_at = excluded.seen_at`;
    },
    probe: async (now) => {
      await sql`INSERT INTO settings (key, value) VALUES ('write_probe', ${String(now)})
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
    },
  };
}
