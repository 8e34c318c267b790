/**
 * The meter's housekeeping in a server process: the queued audit rows and the unauthenticated
 * counts written every second without waiting for a lock,
 * and audit rows past the retention pruned at start and hourly. Failures (a locked or full
 * database) are logged and retried at the next tick; they never reach a request.
 */
import type { Database } from "bun:sqlite";
import type { Clock } from "../clock.ts";
import type { Logger } from "../logger.ts";
import type { Limiter } from "./limiter.ts";
import { pruneAudit } from "./retention.ts";
import { isBusy } from "../../db/errors.ts";

/** How often gathered audit rows and counts are written, and past-retention rows pruned (both databases). */
export const FLUSH_MS = 1000;
export const PRUNE_MS = 3600_000;

export interface AuditMaintenance {
  /** Writes what is still gathered; call before closing the database. */
  stop(): void;
}

export function startAuditMaintenance(
  sqlite: Database,
  limiter: Limiter,
  clock: Clock,
  retentionDays: number,
  logger: Logger,
): AuditMaintenance {
  let busySince: number | null = null;
  const flush = (final = false) => {
    try {
      // Never wait for a lock on the event loop: another process's long write would stall every request (issue #12 item 7).
      limiter.flush({ noWait: !final });
      if (busySince !== null)
        logger.info({ waited_ms: clock.now() - busySince }, "wrote the queued audit rows after the database was locked");
      busySince = null;
    } catch (err) {
      if (isBusy(err) && !final) busySince ??= clock.now();
      else logger.warn({ err: (err as Error).message }, "could not write the queued audit rows and counts; will retry");
    }
    const aggregated = limiter.takeAggregated();
    if (aggregated > 0)
      logger.warn({ aggregated }, "audit queue full: refused requests counted per minute, user and code instead of one row each");
  };
  const prune = () => {
    try {
      const pruned = pruneAudit(sqlite, clock, retentionDays);
      if (pruned.requests + pruned.days + pruned.counts > 0)
        logger.info({ ...pruned, retention_days: retentionDays }, "pruned audit rows past the retention");
    } catch (err) {
      logger.warn({ err: (err as Error).message }, "could not prune the audit log; will retry in an hour");
    }
  };
  // Rows queued by this turn's answers are written right after them, in one batch, without waiting
  // for a lock; when the database is locked they wait for the timer.
  let scheduled = false;
  limiter.whenQueued(() => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      if (busySince === null) flush();
    });
  });
  prune();
  const flushTimer = setInterval(() => flush(), FLUSH_MS);
  const pruneTimer = setInterval(prune, PRUNE_MS);
  flushTimer.unref();
  pruneTimer.unref();
  return {
    stop() {
      clearInterval(flushTimer);
      clearInterval(pruneTimer);
      flush(true);
    },
  };
}
