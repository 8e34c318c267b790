/**
 * reconcile.ts on PostgreSQL: at start, refunds the requests a process that is certainly gone
 * admitted but never answered (counted 0, code UNANSWERED, the day's count given back), in one
 * transaction. Several instances may start at once: each row is refunded by one UPDATE whose
 * WHERE re-checks `counted = 1` under the row lock, and the day's count is given back only for
 * the rows that UPDATE returned, so nothing is given back twice.
 */
import type { SQL } from "bun";
import type { Clock } from "../clock.ts";
import { bootIsGone } from "./boot.ts";
import { STALE_OPEN_MS, type Reconciled } from "./reconcile.ts";

export async function reconcileUnansweredPg(sql: SQL, selfBootId: string, clock: Clock): Promise<Reconciled> {
  const staleBefore = clock.now() - STALE_OPEN_MS;
  const boots = (await sql`SELECT DISTINCT boot_id FROM request_log WHERE status IS NULL AND counted = 1`) as { boot_id: string | null }[];
  let refunded = 0;
  let processes = 0;
  for (const { boot_id: bootId } of boots) {
    if (bootId === selfBootId) continue;
    // 0 = every open row of a process known to be gone; else only those past the age bound.
    const before = bootId !== null && bootIsGone(bootId, selfBootId) ? Number.MAX_SAFE_INTEGER : staleBefore;
    const [r] = (await sql`WITH refunded AS (
        UPDATE request_log SET counted = 0, code = 'UNANSWERED'
         WHERE boot_id IS NOT DISTINCT FROM ${bootId} AND status IS NULL AND counted = 1 AND ts < ${before}
        RETURNING user_id, ts - ts % ${86_400_000} AS day),
      per_day AS (SELECT user_id, day, count(*)::int AS n FROM refunded WHERE user_id IS NOT NULL GROUP BY user_id, day),
      given AS (
        UPDATE usage_days u SET admitted = greatest(0, u.admitted - per_day.n) FROM per_day
         WHERE u.user_id = per_day.user_id AND u.day = per_day.day RETURNING 1)
      SELECT (SELECT count(*)::int FROM refunded) AS n`) as { n: number }[];
    if (r!.n > 0) {
      refunded += r!.n;
      processes++;
    }
  }
  return { refunded, processes };
}
