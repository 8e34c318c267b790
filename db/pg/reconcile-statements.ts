/**
 * reconcile.ts's statements on PostgreSQL. Several instances may start at once: each row is
 * refunded by one UPDATE whose WHERE re-checks `counted = 1` under the row lock, and the day's
 * count is given back, in the same transaction, only for the rows that UPDATE returned, so nothing
 * is given back twice.
 */
import type { SQL } from "bun";
import { NO_BOOT, perDay, type Boot, type ReconcilePort } from "../../src/metering/reconcile.ts";

export function pgReconcilePort(sql: SQL): ReconcilePort {
  return {
    boots: async () => (await sql`SELECT boot_id AS "bootId", low_id::float8 AS "lowId", seen_at::float8 AS "seenAt" FROM boots`) as Boot[],
    refund: (bootId, lowId, before) =>
      sql.begin(async (tx) => {
        const id = bootId === NO_BOOT ? null : bootId;
        const rows = (await tx`UPDATE request_log SET counted = 0, code = 'UNANSWERED'
          WHERE id >= ${lowId} AND boot_id IS NOT DISTINCT FROM ${id} AND status IS NULL AND counted = 1 AND ts < ${before}
          RETURNING user_id AS "userId", ts::float8 AS ts`) as { userId: string | null; ts: number }[];
        for (const e of perDay(rows))
          await tx`UPDATE usage_days SET admitted = greatest(0, admitted - ${e.n}) WHERE user_id = ${e.userId} AND day = ${e.day}`;
        const still = await tx`SELECT 1 FROM request_log
          WHERE id >= ${lowId} AND boot_id IS NOT DISTINCT FROM ${id} AND status IS NULL AND counted = 1 LIMIT 1`;
        return { refunded: rows.length, stillOpen: still.length > 0 };
      }),
    forget: async (bootId) => void (await sql`DELETE FROM boots WHERE boot_id = ${bootId}`),
  };
}
