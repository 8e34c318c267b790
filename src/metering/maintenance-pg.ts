/**
 * maintenance.ts on PostgreSQL: what the meter gathered (the audit queue, unauthenticated counts,
 * outcomes that could not be written during an outage) flushed every second, one flush at a time,
 * and audit rows past the retention pruned at start and hourly. Failures are logged once per
 * outage and retried; they never reach a request.
 */
import type { SQL } from "bun";
import type { Clock } from "../clock.ts";
import type { Logger } from "../logger.ts";
import type { AsyncLimiter } from "./limiter-pg.ts";
import { pruneAuditPg } from "./retention-pg.ts";
import { FLUSH_MS, PRUNE_MS, type AuditMaintenance } from "./maintenance.ts";

export function startAuditMaintenancePg(
  sql: SQL,
  limiter: AsyncLimiter,
  clock: Clock,
  retentionDays: number,
  logger: Logger,
): AuditMaintenance & { stopAsync(): Promise<void> } {
  let running: Promise<void> | null = null;
  let failingSince: number | null = null;
  const flush = (): Promise<void> =>
    (running ??= limiter
      .flush()
      .then(() => {
        if (failingSince !== null)
          logger.info({ waited_ms: clock.now() - failingSince }, "wrote the gathered audit rows and counts after the database came back");
        failingSince = null;
      })
      .catch((err: unknown) => {
        if (failingSince === null)
          logger.warn({ err: (err as Error).message }, "could not write the gathered audit rows and counts; will retry every second");
        failingSince ??= clock.now();
      })
      .finally(() => {
        running = null;
      }));
  const prune = () =>
    pruneAuditPg(sql, clock, retentionDays)
      .then((pruned) => {
        if (pruned.requests + pruned.days + pruned.counts > 0)
          logger.info({ ...pruned, retention_days: retentionDays }, "pruned audit rows past the retention");
      })
      .catch((err: unknown) => logger.warn({ err: (err as Error).message }, "could not prune the audit log; will retry in an hour"));
  void prune();
  const flushTimer = setInterval(() => void flush(), FLUSH_MS);
  const pruneTimer = setInterval(() => void prune(), PRUNE_MS);
  flushTimer.unref();
  pruneTimer.unref();
  const stopTimers = () => {
    clearInterval(flushTimer);
    clearInterval(pruneTimer);
  };
  return {
    stop() {
      stopTimers();
      void flush();
    },
    async stopAsync() {
      stopTimers();
      await running;
      await flush();
    },
  };
}
