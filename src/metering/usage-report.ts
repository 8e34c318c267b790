/**
 * The operator's `usage` report: admitted, refused and uncounted requests per user and UTC day
 * from the audit log, and unauthenticated requests per day and code from their per-minute counts.
 * One implementation per database: SQLite here, PostgreSQL in usage-report-pg.ts.
 */
import type { Database } from "bun:sqlite";
import { and, eq, gte, isNotNull, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { drizzleOf } from "../../db/open.ts";
import { requestLog, unauthenticatedCounts } from "../../db/schema.ts";
import { idFloor } from "./log-ids.ts";
import { sqliteLogIds } from "./log-ids-sqlite.ts";

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
const REQUESTS = sql<number>`CASE WHEN ${requestLog.requestId} = 'aggregated' THEN coalesce(json_extract(${requestLog.params}, '$.aggregated'), 1) ELSE 1 END`;
/** The UTC day of an epoch-ms column, as YYYY-MM-DD. */
const utcDay = (ms: SQLiteColumn) => sql<string>`strftime('%Y-%m-%d', ${ms} / 1000, 'unixepoch')`.as("day");

/** drizzle's typed queries on db/schema.ts; run once per `usage` command, so nothing is kept prepared. */
export function createSqliteUsageReport(sqlite: Database): UsageReport {
  const db = drizzleOf(sqlite);
  return {
    async known(since, user) {
      // Rows from `since` lie at or above this id (log-ids.ts): a range of the rowid, filtered on ts.
      const floor = await idFloor(sqliteLogIds(sqlite), since);
      return db
        .select({
          user: requestLog.userId,
          day: utcDay(requestLog.ts),
          admitted: sql<number>`SUM(${requestLog.counted})`,
          refused: sql<number>`SUM(CASE WHEN ${requestLog.status} = 429 THEN ${REQUESTS} ELSE 0 END)`,
          uncounted: sql<number>`SUM(CASE WHEN ${requestLog.counted} = 0 AND ${requestLog.status} <> 429 THEN ${REQUESTS} ELSE 0 END)`,
        })
        .from(requestLog)
        .where(
          and(
            gte(requestLog.id, floor),
            gte(requestLog.ts, since),
            isNotNull(requestLog.userId),
            user === undefined ? undefined : eq(requestLog.userId, user),
          ),
        )
        .groupBy(requestLog.userId, sql`day`)
        .all();
    },
    async anonymous(since) {
      const c = unauthenticatedCounts;
      return db
        .select({
          user: sql<null>`NULL`,
          day: utcDay(c.minute),
          admitted: sql<number>`0`,
          refused: sql<number>`0`,
          uncounted: sql<number>`SUM(${c.count})`,
          code: c.code,
        })
        .from(c)
        .where(gte(c.minute, since))
        .groupBy(sql`day`, c.code)
        .all();
    },
  };
}
