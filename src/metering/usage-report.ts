/**
 * The operator's `usage` report: admitted, refused and uncounted requests per user and UTC day
 * from the audit log, and unauthenticated requests per day and code from their per-minute counts.
 * One implementation per database: SQLite here, PostgreSQL in usage-report-pg.ts.
 */
import type { Database } from "bun:sqlite";

export interface UsageRow {
  user: string | null;
  day: string;
  admitted: number;
  refused: number;
  uncounted: number;
  /** Unauthenticated rows only: the error code they were refused with. */
  code?: string;
}

export interface UsageReport {
  /** Known users' rows since `since` (epoch ms), of one user when given. */
  known(since: number, user: string | undefined): Promise<UsageRow[]>;
  /** Unauthenticated requests per UTC day and code since `since`. */
  anonymous(since: number): Promise<UsageRow[]>;
}

/** A row written when the audit queue was full stands for n requests (metering/audit-queue.ts). */
const REQUESTS = "CASE WHEN request_id = 'aggregated' THEN coalesce(json_extract(params, '$.aggregated'), 1) ELSE 1 END";

export function createSqliteUsageReport(sqlite: Database): UsageReport {
  return {
    async known(since, user) {
      return sqlite
        .query(
          `SELECT user_id AS user, strftime('%Y-%m-%d', ts / 1000, 'unixepoch') AS day,
                  SUM(counted) AS admitted,
                  SUM(CASE WHEN status = 429 THEN ${REQUESTS} ELSE 0 END) AS refused,
                  SUM(CASE WHEN counted = 0 AND status <> 429 THEN ${REQUESTS} ELSE 0 END) AS uncounted
             FROM request_log WHERE ts >= ? AND user_id IS NOT NULL AND (? IS NULL OR user_id = ?)
            GROUP BY user_id, day`,
        )
        .all(since, user ?? null, user ?? null) as UsageRow[];
    },
    async anonymous(since) {
      return sqlite
        .query(
          `SELECT NULL AS user, strftime('%Y-%m-%d', minute / 1000, 'unixepoch') AS day, 0 AS admitted, 0 AS refused,
                  SUM(count) AS uncounted, code
             FROM unauthenticated_counts WHERE minute >= ? GROUP BY day, code`,
        )
        .all(since) as UsageRow[];
    },
  };
}
