/** retention.ts's deletes on SQLite. */
import type { Database } from "bun:sqlite";
import { sqliteLogIds } from "./log-id-statements.ts";
import type { RetentionPort } from "../../src/metering/retention-port.ts";

export function sqliteRetentionPort(sqlite: Database): RetentionPort {
  const requests = sqlite.prepare<unknown, [number, number, number]>(
    "DELETE FROM request_log WHERE id IN (SELECT id FROM request_log WHERE id < ? AND ts < ? LIMIT ?)",
  );
  const days = sqlite.prepare<unknown, [number]>("DELETE FROM usage_days WHERE day < ?");
  const counts = sqlite.prepare<unknown, [number]>("DELETE FROM unauthenticated_counts WHERE minute < ?");
  return {
    ids: sqliteLogIds(sqlite),
    deleteRequests: (belowId, before, limit) => requests.run(belowId, before, limit).changes,
    deleteDays: (day) => days.run(day).changes,
    deleteCounts: (minute) => counts.run(minute).changes,
  };
}
