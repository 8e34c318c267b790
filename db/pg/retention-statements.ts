/** retention.ts's deletes on PostgreSQL. */
import type { SQL } from "bun";
import { pgLogIds } from "./log-id-statements.ts";
import type { RetentionPort } from "../../src/metering/retention-port.ts";

export function pgRetentionPort(sql: SQL): RetentionPort {
  return {
    ids: pgLogIds(sql),
    deleteRequests: async (belowId, before, limit) =>
      (
        await sql`DELETE FROM request_log WHERE id IN (SELECT id FROM request_log WHERE id < ${belowId} AND ts < ${before} LIMIT ${limit}) RETURNING 1`
      ).length,
    deleteDays: async (day) => (await sql`DELETE FROM usage_days WHERE day < ${day} RETURNING 1`).length,
    deleteCounts: async (minute) => (await sql`DELETE FROM unauthenticated_counts WHERE minute < ${minute} RETURNING 1`).length,
  };
}
