/**
 * The meter on PostgreSQL (DECISIONS §6, §9): the same rules as limiter.ts (sliding minute, UTC
 * day, refunds give the day back), shared by every instance on one database. Check and record are
 * one transaction serialised per user by a transaction-level advisory lock on the hashed user id:
 * it needs no users row, is released by COMMIT, ROLLBACK or a dropped connection, and two users
 * whose hashes collide merely wait for each other. The clock is read once the lock is held, so a
 * user's log order is commit order. The window arithmetic is windows.ts's decide(), unchanged.
 *
 * Every call is async (the request path never blocks the event loop on the database). A lock or
 * statement timeout becomes MeterBusyError, an unreachable database MeterUnavailableError (a
 * MeterBusyError too): both render as 503.
 */
import type { SQL } from "bun";
import type { Clock } from "../clock.ts";
import { denialMessage } from "./headers.ts";
import { redactQuery } from "./redact-query.ts";
import { newBootId } from "./boot.ts";
import { MeterBusyError, type AdmitRequest, type AdmitResult, type UnmeteredEntry } from "./limiter.ts";
import { decide, peekState, utcDayStart, MINUTE_MS, type Limits, type MeterState, type WindowInput } from "./windows.ts";

/** limiter.ts's Limiter, async: the interface the PostgreSQL meter (and a wrapped SQLite one) offers. */
export interface AsyncLimiter {
  peek(userId: string, limits: Limits): Promise<MeterState>;
  admit(req: AdmitRequest): Promise<AdmitResult>;
  finish(logId: number, status: number, durationMs: number, opts?: { refund?: boolean }): Promise<void>;
  logUnmetered(entry: UnmeteredEntry): Promise<number | null>;
  flush(): Promise<void>;
}

/** The database could not be reached (down, restarting, network); render as 503. */
export class MeterUnavailableError extends MeterBusyError {
  constructor() {
    super();
    this.message = "the usage meter's database is unreachable; retry the request shortly";
    this.name = "MeterUnavailableError";
  }
}

// SQLSTATEs: 57014 statement timeout / cancel, 55P03 lock not available, 40001 / 40P01 serialization
// failure / deadlock; class 08 and 57P0x are connection failures and server shutdown.
const BUSY_STATES = new Set(["57014", "55P03", "40001", "40P01"]);
const sqlState = (err: unknown): string => String((err as { errno?: unknown })?.errno ?? "");

/** Maps driver errors to the meter's own; anything else (a bug) is rethrown as is. */
function meterError(err: unknown): unknown {
  if (err instanceof MeterBusyError) return err;
  const state = sqlState(err);
  if (BUSY_STATES.has(state)) return new MeterBusyError();
  const code = String((err as { code?: unknown })?.code ?? "");
  if (/^08|^57P0/.test(state) || /CONNECTION|ECONNREFUSED|ECONNRESET|TIMEOUT|ENOTFOUND|EPIPE/i.test(code)) return new MeterUnavailableError();
  return err;
}

async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw meterError(err);
  }
}

/** A query string is stored with its credentials redacted (DECISIONS §6). */
const paramsText = (p: unknown): string => (typeof p === "string" ? redactQuery(p) : JSON.stringify(p ?? {}));

interface WindowRow {
  n: number;
  oldest: string | null;
  day: number | null;
}

/**
 * Creates the limiter over a pool (db/pg/open.ts sets its size and timeouts). `bootId` marks
 * the rows this process admits, so a crash's unanswered rows can be told apart (reconcile.ts).
 */
export function createPgLimiter(sql: SQL, clock: Clock, bootId: string = newBootId()): AsyncLimiter {
  /**
   * Both windows in one round trip: the minute's count and oldest entry over the
   * (user_id, counted, ts) index, and the day's counter by primary key.
   */
  async function readWindows(q: SQL, userId: string, limits: Limits, now: number): Promise<WindowInput> {
    const after = now - MINUTE_MS;
    const day = utcDayStart(now);
    const [row] = (await q`SELECT
        (SELECT count(*)::int FROM request_log WHERE user_id = ${userId} AND counted = 1 AND ts > ${after}) AS n,
        (SELECT min(ts) FROM request_log WHERE user_id = ${userId} AND counted = 1 AND ts > ${after}) AS oldest,
        (SELECT admitted FROM usage_days WHERE user_id = ${userId} AND day = ${day}) AS day`) as WindowRow[];
    const n = row!.n;
    // decide() asks for entry 0 and, on a denial, for entry n − perMinute: fetch that one too
    // when it is not the oldest (only after a user's limit was lowered).
    const known = new Map<number, number>();
    if (row!.oldest !== null) known.set(0, Number(row!.oldest));
    const k = n - limits.perMinute;
    if (k > 0) {
      const [r] = await q`SELECT ts FROM request_log WHERE user_id = ${userId} AND counted = 1 AND ts > ${after} ORDER BY ts OFFSET ${k} LIMIT 1`;
      known.set(k, Number(r!.ts));
    }
    const nth = (i: number): number => {
      const ts = known.get(i);
      if (ts === undefined) throw new Error(`minute window entry ${i} was not read`);
      return ts;
    };
    return { now, limits, minute: { count: n, nth }, dayCount: row!.day ?? 0 };
  }

  const unauthenticated = new Map<string, number>();

  return {
    peek: (userId, limits) => guarded(async () => peekState(await readWindows(sql, userId, limits, clock.now()))),

    admit: (req) =>
      guarded(() =>
        sql.begin(async (tx): Promise<AdmitResult> => {
          await tx`SELECT pg_advisory_xact_lock(hashtextextended(${req.userId}, 0))`;
          const now = clock.now();
          const d = decide(await readWindows(tx, req.userId, req.limits, now));
          const params = paramsText(req.params);
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
     * Records the final status and duration. A 5xx, or `refund: true`, refunds it: counted 0, row
     * kept, and the day's count given back — one statement, so atomic without a transaction. The
     * row lock (FOR UPDATE) makes a second refund of the same row see counted = 0 and give nothing.
     */
    finish: (logId, status, durationMs, opts) =>
      guarded(async () => {
        const refund = status >= 500 || opts?.refund === true;
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
      }),

    logUnmetered: (e) =>
      guarded(async () => {
        if (e.userId === null) {
          // Counted per UTC minute and code, written by flush() (as unauthenticated-counter.ts does).
          const key = `${Math.floor(clock.now() / MINUTE_MS) * MINUTE_MS} ${e.code ?? String(e.status)}`;
          unauthenticated.set(key, (unauthenticated.get(key) ?? 0) + 1);
          return null;
        }
        const [r] = await sql`INSERT INTO request_log (request_id, user_id, ts, status, duration_ms, counted, code, params)
          VALUES (${e.requestId}, ${e.userId}, ${clock.now()}, ${e.status}, ${e.durationMs}, 0, ${e.code}, ${paramsText(e.params)}) RETURNING id`;
        return Number(r!.id);
      }),

    /** Writes the gathered unauthenticated counts; on failure they stay for the next flush. */
    flush: () =>
      guarded(async () => {
        if (unauthenticated.size === 0) return;
        const batch = [...unauthenticated];
        unauthenticated.clear();
        try {
          await sql.begin(async (tx) => {
            for (const [key, n] of batch) {
              const space = key.indexOf(" ");
              await tx`INSERT INTO unauthenticated_counts (minute, code, count) VALUES (${Number(key.slice(0, space))}, ${key.slice(space + 1)}, ${n})
                ON CONFLICT (minute, code) DO UPDATE SET count = unauthenticated_counts.count + ${n}`;
            }
          });
        } catch (err) {
          for (const [key, n] of batch) unauthenticated.set(key, (unauthenticated.get(key) ?? 0) + n);
          throw err;
        }
      }),
  };
}
