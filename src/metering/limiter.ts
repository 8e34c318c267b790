/**
 * The meter on SQLite (DECISIONS §6). Check and record happen in one BEGIN IMMEDIATE transaction,
 * so several server processes on one database file never admit more than the limits allow.
 * Table `request_log` is both the audit log and the meter: rows with counted = 1 consume the windows.
 */
import type { Database } from "bun:sqlite";
import type { Clock } from "../clock.ts";
import { denialMessage } from "./headers.ts";
import { decide, peekState, utcDayStart, MINUTE_MS, type DenialCode, type Limits, type MeterState, type WindowInput } from "./windows.ts";

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
  logUnmetered(entry: UnmeteredEntry): number;
}

/** Thrown when the database stayed locked beyond busy_timeout and the retries; render as 503. */
export class MeterBusyError extends Error {
  constructor() {
    super("the usage meter is busy; retry the request shortly");
    this.name = "MeterBusyError";
  }
}

const BUSY_RETRIES = 3;

const isBusy = (err: unknown): boolean =>
  typeof (err as { code?: unknown })?.code === "string" && /^SQLITE_(BUSY|LOCKED)/.test((err as { code: string }).code);

const paramsText = (p: unknown): string => (typeof p === "string" ? p : JSON.stringify(p ?? {}));

/** Creates the limiter over an open database (see db/open.ts for busy_timeout and WAL). */
export function createLimiter(sqlite: Database, clock: Clock): Limiter {
  const begin = sqlite.prepare("BEGIN IMMEDIATE");
  const commit = sqlite.prepare("COMMIT");
  const rollback = sqlite.prepare("ROLLBACK");
  const minuteRows = sqlite.prepare<{ ts: number }, [string, number]>(
    "SELECT ts FROM request_log WHERE user_id = ? AND counted = 1 AND ts > ? ORDER BY ts",
  );
  const dayCount = sqlite.prepare<{ n: number }, [string, number]>(
    "SELECT count(*) AS n FROM request_log WHERE user_id = ? AND counted = 1 AND ts >= ?",
  );
  const insert = sqlite.prepare<{ id: number }, [string, string | null, number, number | null, number | null, number, string | null, string]>(
    "INSERT INTO request_log (request_id, user_id, ts, status, duration_ms, counted, code, params) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
  );
  const finishStmt = sqlite.prepare(
    "UPDATE request_log SET status = ?1, duration_ms = ?2, counted = CASE WHEN ?1 >= 500 OR ?4 THEN 0 ELSE counted END WHERE id = ?3",
  );

  function windowInput(userId: string, limits: Limits, now: number): WindowInput {
    return {
      now,
      limits,
      minuteTimestamps: minuteRows.all(userId, now - MINUTE_MS).map((r) => r.ts),
      dayCount: dayCount.get(userId, utcDayStart(now))!.n,
    };
  }

  function admitOnce(req: AdmitRequest): AdmitResult {
    begin.run();
    try {
      // Read the clock only once the write lock is held, so log order matches commit order.
      const now = clock.now();
      const d = decide(windowInput(req.userId, req.limits, now));
      const params = paramsText(req.params);
      const logId = d.ok
        ? insert.get(req.requestId, req.userId, now, null, null, 1, null, params)!.id
        : insert.get(req.requestId, req.userId, now, 429, null, 0, d.code, params)!.id;
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
          return admitOnce(req);
        } catch (err) {
          if (!isBusy(err)) throw err;
          if (attempt >= BUSY_RETRIES) throw new MeterBusyError();
        }
      }
    },

    /**
     * Records the final status and duration. A 5xx, or `refund: true` (an admitted request that
     * was not served, e.g. a 4xx found after admission), refunds it: counted 0, row kept.
     */
    finish(logId, status, durationMs, opts) {
      finishStmt.run(status, durationMs, logId, opts?.refund ? 1 : 0);
    },

    /** Logs a live request that is never metered (400/401/403); returns its log id. */
    logUnmetered(e) {
      return insert.get(e.requestId, e.userId, clock.now(), e.status, e.durationMs, 0, e.code, paramsText(e.params))!.id;
    },
  };
}
