/** usage-report.ts's aggregates on PostgreSQL. */
import type { SQL } from "bun";
import { pgLogIds } from "./log-id-statements.ts";
import { textArray } from "./arrays.ts";
import type { KnownGroup, OutcomeGroup, UsageGroup, UsagePort, UserTotal } from "../../src/metering/usage-port.ts";

export function pgUsagePort(sql: SQL): UsagePort {
  return {
    ids: pgLogIds(sql),
    // An aggregated row's params are {"aggregated": n}; other rows' params are never parsed.
    known: async (fromId, toId, from, to, user) =>
      (await sql`SELECT user_id AS "user", counted, status,
          sum(CASE WHEN request_id = 'aggregated' THEN coalesce((params::jsonb ->> 'aggregated')::int, 1) ELSE 1 END)::int AS requests,
          coalesce(sum(CASE WHEN counted = 1 OR boot_id IS NOT NULL THEN duration_ms END), 0)::float8 AS "computeMs"
        FROM request_log
        WHERE id >= ${fromId} AND id < ${toId} AND ts >= ${from} AND ts < ${to} AND user_id IS NOT NULL
          AND (${user ?? null}::text IS NULL OR user_id = ${user ?? null})
        GROUP BY user_id, counted, status`) as KnownGroup[],
    // Admitted rows carry the admitting process's boot id; one still counted is admitted too (rows from before boot ids).
    outcomes: async (fromId, toId, from, to) =>
      (await sql`SELECT ((ts - ${from}::bigint) / 86400000)::int AS day, counted,
          CASE WHEN status = 429 THEN coalesce(code, 'RATE_LIMITED') END AS code,
          CASE WHEN counted = 1 OR boot_id IS NOT NULL THEN 1 ELSE 0 END AS admitted, status,
          sum(CASE WHEN request_id = 'aggregated' THEN coalesce((params::jsonb ->> 'aggregated')::int, 1) ELSE 1 END)::int AS requests
        FROM request_log
        WHERE id >= ${fromId} AND id < ${toId} AND ts >= ${from} AND ts < ${to} AND user_id IS NOT NULL
        GROUP BY 1, 2, 3, 4, 5`) as OutcomeGroup[],
    userTotals: async (fromId, toId, from, to) =>
      (await sql`SELECT user_id AS "user", sum(counted)::int AS admitted, coalesce(sum(duration_ms), 0)::float8 AS "computeMs"
        FROM request_log
        WHERE id >= ${fromId} AND id < ${toId} AND ts >= ${from} AND ts < ${to} AND user_id IS NOT NULL
          AND (counted = 1 OR boot_id IS NOT NULL)
        GROUP BY user_id`) as UserTotal[],
    ofUsers: async (users, from, to) =>
      users.length === 0
        ? []
        : ((await sql`SELECT user_id AS "user", counted, status,
              sum(CASE WHEN request_id = 'aggregated' THEN coalesce((params::jsonb ->> 'aggregated')::int, 1) ELSE 1 END)::int AS requests
            FROM request_log WHERE user_id = ANY(${textArray([...users])}::text[]) AND ts >= ${from} AND ts < ${to}
            GROUP BY user_id, counted, status`) as UsageGroup[]),
    async minutes() {
      const [row] = (await sql`SELECT min(minute)::float8 AS first, max(minute)::float8 AS last FROM unauthenticated_counts`) as {
        first: number | null;
        last: number | null;
      }[];
      return row?.first != null && row.last != null ? { first: row.first, last: row.last } : null;
    },
    anonymous: async (from, to) =>
      (await sql`SELECT code, sum(count)::int AS requests FROM unauthenticated_counts
        WHERE minute >= ${from} AND minute < ${to} GROUP BY code`) as { code: string; requests: number }[],
  };
}
