/** The billing export's page on SQLite (src/metering/usage-export-port.ts): a keyset range of the rowid. */
import type { Database } from "bun:sqlite";
import type { BilledRow, UsageExportPort } from "../../src/metering/usage-export-port.ts";
import { sqliteLogIds } from "./log-id-statements.ts";

export function sqliteUsageExportPort(sqlite: Database): UsageExportPort {
  const page = sqlite.prepare<BilledRow, [number, number, number, number, number]>(
    `SELECT id, request_id AS requestId, user_id AS userId, ts, status, duration_ms AS durationMs, cost_ms AS costMs, plan
     FROM request_log
     WHERE id > ?1 AND id < ?2 AND ts >= ?3 AND ts < ?4 AND counted = 1 AND status IS NOT NULL AND user_id IS NOT NULL
     ORDER BY id LIMIT ?5`,
  );
  return { ids: sqliteLogIds(sqlite), page: (after, toId, from, to, limit) => page.all(after, toId, from, to, limit) };
}
