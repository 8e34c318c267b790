/**
 * The meter's housekeeping in a server process: the unauthenticated counts written every second,
 * and audit rows past the retention pruned at start and hourly. Failures (a locked or full
 * database) are logged and retried at the next tick; they never reach a request.
 */
import type { Database } from "bun:sqlite";
import type { Clock } from "../clock.ts";
import type { Logger } from "../logger.ts";
import type { Limiter } from "./limiter.ts";
import { pruneAudit } from "./retention.ts";

const FLUSH_MS = 1000;
const PRUNE_MS = 3600_000;

export interface AuditMaintenance {
  /** Writes what is still gathered; call before closing the database. */
  stop(): void;
}

export function startAuditMaintenance(sqlite: Database, limiter: Limiter, clock: Clock, retentionDays: number, logger: Logger): AuditMaintenance {
  const flush = () => {
    try {
      limiter.flush();
    } catch (err) {
      logger.warn({ err: (err as Error).message }, "could not write the unauthenticated request counts; will retry");
    }
  };
  const prune = () => {
    try {
      const pruned = pruneAudit(sqlite, clock, retentionDays);
      if (pruned.requests + pruned.days + pruned.counts > 0) logger.info({ ...pruned, retention_days: retentionDays }, "pruned audit rows past the retention");
    } catch (err) {
      logger.warn({ err: (err as Error).message }, "could not prune the audit log; will retry in an hour");
    }
  };
  prune();
  const flushTimer = setInterval(flush, FLUSH_MS);
  const pruneTimer = setInterval(prune, PRUNE_MS);
  flushTimer.unref();
  pruneTimer.unref();
  return {
    stop() {
      clearInterval(flushTimer);
      clearInterval(pruneTimer);
      flush();
    },
  };
}
