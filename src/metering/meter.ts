/**
 * The usage meter, as the routes and the server see it (docs/api.md § Metering): the same rules on
 * SQLite and PostgreSQL, written once in meter-policy.ts over each database's statements
 * (meter-port.ts). Every call is async, so nothing here blocks the event loop on PostgreSQL.
 */
import type { DenialCode, Limits, MeterState } from "./windows.ts";

export type AdmitResult =
  | { ok: true; logId: number; state: MeterState }
  | { ok: false; code: DenialCode; retryAfter: number; message: string; state: MeterState; logId: number };

export interface AdmitRequest {
  userId: string;
  limits: Limits;
  requestId: string;
  /** Effective request parameters for the audit log; stored as JSON unless already a string. */
  params: unknown;
  /**
   * The status of an answer already in hand (a cached result): an admitted row is written with it
   * in the admitting transaction, so finish() with that status only queues the duration for the
   * next flush instead of writing the row again (docs/api.md § Metering).
   */
  answered?: number;
  /** The estimated cost (ms of one core) and the user's plan, kept on the admitted row for the billing export. */
  cost?: number;
  plan?: string;
  /**
   * The client's connection: once it aborts, a request still waiting for the meter's lock stops
   * waiting and is not admitted (its caller audits it as 499, counted 0).
   */
  signal?: AbortSignal;
}

export interface UnmeteredEntry {
  userId: string | null;
  requestId: string;
  status: number;
  code: string | null;
  params: unknown;
  durationMs: number;
}

/** An admitted request's outcome, written when the database takes it (held while writes fail). */
export interface Finish {
  logId: number;
  status: number;
  durationMs: number;
  refund: boolean;
}

export interface Meter {
  /** The state without writing anything (headers for responses that are not metered, e.g. 400). */
  peek(userId: string, limits: Limits): Promise<MeterState>;
  /** Checks both windows and records the request (admitted: counted; denied: a 429 row) atomically. */
  admit(req: AdmitRequest): Promise<AdmitResult>;
  /**
   * Records the final status and duration. A 5xx, or `refund: true` (an admitted request that was
   * not served), refunds it: counted 0, row kept, the day given back. When the database is locked,
   * down or refuses writes, the outcome waits for flush() instead of failing the answer.
   */
  finish(logId: number, status: number, durationMs: number, opts?: { refund?: boolean }): Promise<void>;
  /**
   * The duration of a 429, written by the next flush(): its row was written in admit's transaction,
   * or, refused from a read while another process held the write lock, waits in the audit queue.
   */
  finishRefused(logId: number, durationMs: number): void;
  /**
   * Logs a live request that is never metered. A known user's (400/403/404) waits in the audit
   * queue; without a user (401) it is only counted per minute and code. Nothing is written on the
   * request path, so nothing waits for a lock.
   */
  logUnmetered(entry: UnmeteredEntry): Promise<void>;
  /**
   * Writes what is waiting: outcomes not yet written, the queued audit rows, the unauthenticated
   * counts, and while writes fail, a probe. With `noWait`, another process's lock fails the write
   * at once instead of waiting for it (SQLite's busy_timeout); what was not written waits.
   */
  flush(opts?: { noWait?: boolean }): Promise<void>;
  /** Refused requests counted in aggregate since the last call because the audit queue was full. */
  takeAggregated(): number;
  /** Called when an audit row is queued (the server schedules a flush after the current answers). */
  whenQueued(listener: () => void): void;
  /** Why writes are failing (e.g. `disk full (SQLITE_FULL)`), null once one succeeds again. */
  writeFailure(): string | null;
}
