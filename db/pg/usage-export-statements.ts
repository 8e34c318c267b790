/** The billing export's page on PostgreSQL (src/metering/usage-export-port.ts): a keyset range of the primary key. */
import type { SQL } from "bun";
import type { BilledRow, UsageExportPort } from "../../src/metering/usage-export-port.ts";
import { pgLogIds } from "./log-id-statements.ts";

export function pgUsageExportPort(sql: SQL): UsageExportPort {
  return {
    ids: pgLogIds(sql),
    // ORDER BY the column, not the float8 output named like it: that sorted every row left in the range per page.
    page: async (after, toId, from, to, limit) =>
      (await sql`SELECT id::float8 AS id, request_id AS "requestId", user_id AS "userId", ts::float8 AS ts, status,
          duration_ms AS "durationMs", cost_ms AS "costMs", plan
        FROM request_log
        WHERE id > ${after} AND id < ${toId} AND ts >= ${from} AND ts < ${to} AND counted = 1 AND status IS NOT NULL AND user_id IS NOT NULL
        ORDER BY request_log.id LIMIT ${limit}`) as BilledRow[],
  };
}
