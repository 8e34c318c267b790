/**
 * reconcile.ts's statements on PostgreSQL. Several instances may start at once: each row is
 * refunded by one UPDATE whose WHERE re-checks `counted = 1` under the row lock, and the day's
 * count is given back only for the rows that UPDATE returned, so nothing is given back twice.
 */
import type { SQL } from "bun";
import { NO_BOOT, type Boot, type ReconcilePort } from "./reconcile.ts";

export function pgReconcilePort(sql: SQL): ReconcilePort {
  return {
    boots: async () => (await sql`SELECT boot_id AS "bootId", low_id::float8 AS "lowId", seen_at::float8 AS "seenAt" FROM boots`) as Boot[],
    async refund(bootId, lowId, before) {
      const id = bootId === NO_BOOT ? null : bootId;
      const [r] = (await sql`WITH refunded AS (
          UPDATE request_log SET counted = 0, code = 'UNANSWERED'
           WHERE id >= ${lowId} AND boot_id IS NOT DISTINCT FROM ${id} AND status IS NULL AND counted = 1 AND ts < ${before}
          RETURNING user_id, ts - ts % ${86_400_000} AS day),
        per_day AS (SELECT user_id, day, count(*)::int AS n FROM refunded WHERE user_id IS NOT NULL GROUP BY user_id, day),
        given AS (
          UPDATE usage_days u SET admitted = greatest(0, u.admitted - per_day.n) FROM per_day
           WHERE u.user_id = per_day.user_id AND u.day = per_day.day RETURNING 1)
        SELECT (SELECT count(*)::int FROM refunded) AS n`) as { n: number }[];
      // A separate statement sees the refund's effect (a CTE's own snapshot would not).
      const still = await sql`SELECT 1 FROM request_log
         WHERE id >= ${lowId} AND boot_id IS NOT DISTINCT FROM ${id} AND status IS NULL AND counted = 1 LIMIT 1`;
      return { refunded: r!.n, stillOpen: still.length > 0 };
    },
    forget: async (bootId) => void (await sql`DELETE FROM boots WHERE boot_id = ${bootId}`),
  };
}
