/**
 * The meter's housekeeping in a server process, on either database: the queued audit rows and
 * counts written every second without waiting for another process's lock (one flush at a time),
 * and right after the answers that queued them; audit rows past the retention pruned at start
 * and hourly. Failures (a locked, full or unreachable database) are logged once and retried at
 * the next tick; they never reach a request.
 */
import { isBusy } from "../../db/errors.ts";
import type { Clock } from "../clock.ts";
import type { Logger } from "../logger.ts";
import type { Meter } from "./meter.ts";
import type { Maybe } from "./meter-port.ts";
import type { Pruned } from "./retention.ts";

/** How often gathered audit rows and counts are written, and past-retention rows pruned. */
export const FLUSH_MS = 1000;
export const PRUNE_MS = 3600_000;

export interface AuditMaintenance {
  /** Stops the timers and writes what is still gathered (waiting for locks); call before closing the database. */
  stop(): Promise<void>;
}

export function startAuditMaintenance(
  meter: Meter,
  pruneAudit: () => Maybe<Pruned>,
  clock: Clock,
  retentionDays: number,
  logger: Logger,
): AuditMaintenance {
  let running: Promise<void> | null = null;
  let failingSince: number | null = null;
  const flush = (final = false): Promise<void> =>
    (running ??= meter
      // Never wait for a lock on the event loop: another process's long write would stall every request (issue #12 item 7).
      .flush({ noWait: !final })
      .then(() => {
        if (failingSince !== null)
          logger.info(
            { waited_ms: clock.now() - failingSince },
            "wrote the queued audit rows and counts after the database was locked or down",
          );
        failingSince = null;
      })
      .catch((err: unknown) => {
        // Another process holding the lock is routine: only a failure of another kind is worth a warning.
        if (failingSince === null && (final || !isBusy(err)))
          logger.warn({ err: (err as Error).message }, "could not write the queued audit rows and counts; will retry every second");
        failingSince ??= clock.now();
      })
      .finally(() => {
        running = null;
        const aggregated = meter.takeAggregated();
        if (aggregated > 0)
          logger.warn({ aggregated }, "audit queue full: refused requests counted per minute, user and code instead of one row each");
      }));
  const prune = async () => {
    try {
      const pruned = await pruneAudit();
      if (pruned.requests + pruned.days + pruned.counts > 0)
        logger.info({ ...pruned, retention_days: retentionDays }, "pruned audit rows past the retention");
    } catch (err) {
      logger.warn({ err: (err as Error).message }, "could not prune the audit log; will retry in an hour");
    }
  };
  // Rows queued by this turn's answers are written right after them, in one batch; while the
  // database is locked or down they wait for the timer.
  let scheduled = false;
  meter.whenQueued(() => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      if (failingSince === null) void flush();
    });
  });
  void prune();
  const flushTimer = setInterval(() => void flush(), FLUSH_MS);
  const pruneTimer = setInterval(() => void prune(), PRUNE_MS);
  flushTimer.unref();
  pruneTimer.unref();
  return {
    async stop() {
      clearInterval(flushTimer);
      clearInterval(pruneTimer);
      await running;
      await flush(true);
    },
  };
}
