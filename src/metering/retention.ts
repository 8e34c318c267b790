/**
 * Audit retention (docs/api.md § The audit log): request_log rows, per-day counts and
 * unauthenticated counts older than the retention are deleted, so the audit log does not grow
 * without bound. Deleted in batches, each its own short statement, so the write lock is never held
 * for long. Written once; each database supplies its deletes (db/sqlite/retention-statements.ts, db/pg/retention-statements.ts).
 */
import type { Clock } from "../clock.ts";
import { idCeiling } from "./log-ids.ts";
import type { RetentionPort } from "./retention-port.ts";
import { DAY_MS, utcDayStart } from "./windows.ts";

export const DEFAULT_AUDIT_RETENTION_DAYS = 90;
const BATCH = 5000;

export interface Pruned {
  requests: number;
  days: number;
  counts: number;
}

export async function pruneAudit(port: RetentionPort, clock: Clock, retentionDays: number): Promise<Pruned> {
  const cutoff = clock.now() - retentionDays * DAY_MS;
  // Rows still open (admitted, unanswered) that old were reconciled long ago; they go too.
  // The oldest rows by id (log-ids.ts), those past the cutoff: a walk of the primary key, no ts index.
  // The newest row always stays: SQLite's request_log issues max(id) + 1 (no AUTOINCREMENT), so an
  // id is never issued twice (reconcile.ts's watermarks are ids).
  const bounds = await port.ids.bounds();
  const ceiling = Math.min(await idCeiling(port.ids, cutoff), bounds?.max ?? 0);
  let requests = 0;
  for (;;) {
    const n = await port.deleteRequests(ceiling, cutoff, BATCH);
    requests += n;
    if (n < BATCH) break;
  }
  // A day's count goes only once the whole day is past the cutoff, so today's quota is never touched.
  return { requests, days: await port.deleteDays(utcDayStart(cutoff)), counts: await port.deleteCounts(cutoff) };
}
