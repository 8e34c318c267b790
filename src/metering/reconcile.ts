/**
 * Requests admitted but never answered because their process died (SIGKILL, power loss, OOM) stay
 * counted with no status. At start the server refunds them (docs/api.md § Metering: a crash before
 * the answer is a server fault): counted 0, code UNANSWERED, and the day's count given back, in one
 * transaction per process. Written once; each database supplies its statements
 * (db/sqlite/reconcile-statements.ts, db/pg/reconcile-statements.ts).
 *
 * Every process that admits keeps a watermark in `boots` (db/sqlite/schema.ts): its rows below low_id are
 * settled, so its open rows are found by a walk of the id from there, with no index that every
 * request would write. Only rows of processes that are certainly gone are refunded at once: a live
 * process's in-flight rows must keep counting. A process is gone when its boot id (boot.ts) names
 * this host and a pid that no longer runs; rows that cannot be checked that way (another host, rows
 * from before boot ids) are refunded once older than STALE_OPEN_MS, longer than any request can take.
 */
import type { Clock } from "../clock.ts";
import { bootIsGone } from "./boot.ts";
import type { Maybe } from "./meter-port.ts";
import { utcDayStart } from "./windows.ts";

/** An open row older than this belongs to no live request, whoever admitted it. */
export const STALE_OPEN_MS = 3600_000;

/** The boots row of rows written before boot ids (boot_id NULL). */
export const NO_BOOT = "";

export interface Reconciled {
  /** Requests refunded. */
  refunded: number;
  /** Distinct processes they came from. */
  processes: number;
}

export interface Boot {
  bootId: string;
  lowId: number;
  seenAt: number;
}

/** Each database's statements. */
export interface ReconcilePort {
  boots(): Maybe<Boot[]>;
  /**
   * In one transaction: refunds the rows of `bootId` (NO_BOOT: boot_id NULL) from `lowId` that are
   * still open and older than `before` (counted 0, code UNANSWERED, the day's counts given back,
   * each row once even when several processes start together); says how many, and whether any
   * row of it stays open.
   */
  refund(bootId: string, lowId: number, before: number): Maybe<{ refunded: number; stillOpen: boolean }>;
  /** Drops a watermark whose rows are all settled. */
  forget(bootId: string): Maybe<void>;
}

/**
 * The day counts that refunded rows give back: per user and UTC day, ordered, so that concurrent
 * refunds lock usage_days rows in the same order (both ports use it).
 */
export function perDay(rows: { userId: string | null; ts: number }[]): { userId: string; day: number; n: number }[] {
  const counts = new Map<string, { userId: string; day: number; n: number }>();
  for (const { userId, ts } of rows) {
    if (userId === null) continue;
    const day = utcDayStart(ts);
    const key = `${userId}\u0000${day}`;
    const entry = counts.get(key) ?? { userId, day, n: 0 };
    entry.n++;
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : a.day - b.day));
}

export async function reconcileUnanswered(port: ReconcilePort, selfBootId: string, clock: Clock): Promise<Reconciled> {
  const staleBefore = clock.now() - STALE_OPEN_MS;
  let refunded = 0;
  let processes = 0;
  for (const boot of await port.boots()) {
    if (boot.bootId === selfBootId) continue;
    const gone = boot.bootId !== NO_BOOT && bootIsGone(boot.bootId, selfBootId);
    const r = await port.refund(boot.bootId, boot.lowId, gone ? Number.MAX_SAFE_INTEGER : staleBefore);
    if (r.refunded > 0) {
      refunded += r.refunded;
      processes++;
    }
    // A watermark not moved for the age bound is a process gone elsewhere (a live one moves it at
    // least every HEARTBEAT_MS, meter-policy.ts), or the rows from before boot ids.
    if (!r.stillOpen && (gone || boot.seenAt < staleBefore)) await port.forget(boot.bootId);
  }
  return { refunded, processes };
}
