/** usage-report.ts on PostgreSQL: the same rows, day strings and aggregated-row weights. */
import type { SQL } from "bun";
import { idFloor } from "./log-ids.ts";
import { pgLogIds } from "./log-ids-pg.ts";
import type { UsageReport, UsageRow } from "./usage-report.ts";

export function createPgUsageReport(sql: SQL): UsageReport {
  return {
    async known(since, user) {
      // Rows from `since` lie at or above this id (log-ids.ts): a range of the primary key, filtered on ts.
      const floor = await idFloor(pgLogIds(sql), since);
      // An aggregated row's params are {"aggregated": n}; other rows' params are never parsed.
      return (await sql`WITH r AS (
          SELECT user_id, ts, counted, status,
                 CASE WHEN request_id = 'aggregated' THEN coalesce((params::jsonb ->> 'aggregated')::int, 1) ELSE 1 END AS n
            FROM request_log WHERE id >= ${floor} AND ts >= ${since} AND user_id IS NOT NULL AND (${user ?? null}::text IS NULL OR user_id = ${user ?? null}))
        SELECT user_id AS "user", to_char(to_timestamp(ts / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
               sum(counted)::int AS admitted,
               sum(CASE WHEN status = 429 THEN n ELSE 0 END)::int AS refused,
               sum(CASE WHEN counted = 0 AND status <> 429 THEN n ELSE 0 END)::int AS uncounted
          FROM r GROUP BY 1, 2`) as UsageRow[];
    },
    async anonymous(since) {
      return (await sql`SELECT NULL AS "user", to_char(to_timestamp(minute / 1000) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
               0 AS admitted, 0 AS refused, sum(count)::int AS uncounted, code
          FROM unauthenticated_counts WHERE minute >= ${since} GROUP BY 2, code`) as UsageRow[];
    },
  };
}
