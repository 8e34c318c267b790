/**
 * Audit retention (docs/api.md § The audit log): request_log rows, per-day counts and
 * unauthenticated counts older than the retention are deleted, so the audit log does not grow
 * without bound. Deleted in batches, each its own short transaction, so the write lock is never
 * held for long.
 */
import type { Database } from "bun:sqlite";
import type { Clock } from "../clock.ts";
import { idCeiling } from "./log-ids.ts";
import { sqliteLogIds } from "./log-ids-sqlite.ts";
import { DAY_MS, utcDayStart } from "./windows.ts";

export const DEFAULT_AUDIT_RETENTION_DAYS = 90;
const BATCH = 5000;

export interface Pruned {
  requests: number;
  days: number;
  counts: number;
}

export async function pruneAudit(sqlite: Database, clock: Clock, retentionDays: number): Promise<Pruned> {
  const cutoff = clock.now() - retentionDays * DAY_MS;
  // Rows still open (admitted, unanswered) that old were reconciled long ago; they go too.
  // The oldest rows by id (log-ids.ts), those past the cutoff: a walk of the rowid, no ts index.
  const ceiling = await idCeiling(sqliteLogIds(sqlite), cutoff);
  const requests = sqlite.prepare<unknown, [number, number, number]>(
    "DELETE FROM request_log WHERE id IN (SELECT id FROM request_log WHERE id < ? AND ts < ? LIMIT ?)",
  );
  // A day's count goes only once the whole day is past the cutoff, so today's quota is never touched.
  const days = sqlite.prepare<unknown, [number]>("DELETE FROM usage_days WHERE day < ?");
  const counts = sqlite.prepare<unknown, [number]>("DELETE FROM unauthenticated_counts WHERE minute < ?");
  let deleted = 0;
  for (;;) {
    const n = requests.run(ceiling, cutoff, BATCH).changes;
    deleted += n;
    if (n < BATCH) break;
  }
  return {
    requests: deleted,
    days: days.run(utcDayStart(cutoff)).changes,
    counts: counts.run(cutoff).changes,
  };
}
