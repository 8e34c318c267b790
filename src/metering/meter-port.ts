/**
 * What each database implements for the meter: its statements, none of the policy (meter-policy.ts).
 * SQLite answers synchronously (one BEGIN IMMEDIATE transaction per call), PostgreSQL with promises.
 */
import type { AuditBatch } from "./audit-queue.ts";
import type { AdmitRequest, Finish } from "./meter.ts";
import type { MinuteCount } from "./unauthenticated-counter.ts";
import type { Limits, WindowDecision, WindowInput } from "./windows.ts";

export type Maybe<T> = T | Promise<T>;

/** `wait: false` — fail at once on another process's lock instead of waiting for it (SQLite); PostgreSQL never blocks the loop. */
export interface MeterPort {
  /**
   * In one transaction holding the user's meter lock: reads both windows at the clock's time once
   * the lock is held (so log order is commit order), lets `decide` choose, and records the admitted
   * row with the day's count, or the 429 row with its code and the audit parameters `params`.
   * While another holds the lock, a window a plain read shows full is refused from that read:
   * `logId` null when that refusal wrote nothing (SQLite: the policy queues its row). Waits for the
   * lock off the event loop, for a bounded time, and stops when `req.signal` aborts.
   */
  admit(
    req: AdmitRequest,
    params: string,
    decide: (input: WindowInput) => WindowDecision,
  ): Maybe<{ decision: WindowDecision; logId: number | null }>;
  /** Both windows at `now`, writing nothing. */
  windows(userId: string, limits: Limits, now: number): Maybe<WindowInput>;
  /** An admitted request's outcome; a refund also gives the day's count back, once, in the same transaction. */
  finish(job: Finish, wait: boolean): Maybe<void>;
  writeAudit(batch: AuditBatch, wait: boolean): Maybe<void>;
  writeCounts(counts: MinuteCount[], wait: boolean): Maybe<void>;
  /** A one-row write that finds out when writes work again. */
  probe(now: number, wait: boolean): Maybe<void>;
  /**
   * This process's watermark in boots (reconcile.ts): every row it admitted below `lowId` is
   * settled. The first admitted row writes the first one, in admit's transaction.
   */
  settle(lowId: number, now: number, wait: boolean): Maybe<void>;
}
