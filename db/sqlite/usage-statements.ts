/** usage-report.ts's aggregates on SQLite, on drizzle's typed queries (run once per `usage` command: nothing kept prepared). */
import type { Database } from "bun:sqlite";
import { and, gte, isNotNull, lt, sql } from "drizzle-orm";
import { drizzleOf } from "./open.ts";
import { requestLog, unauthenticatedCounts } from "./schema.ts";
import { sqliteLogIds } from "./log-id-statements.ts";
import type { UsagePort } from "../../src/metering/usage-port.ts";

/** A row written when the audit queue was full stands for n requests (audit-queue.ts). */
const REQUESTS = sql<number>`SUM(CASE WHEN ${requestLog.requestId} = 'aggregated' THEN coalesce(json_extract(${requestLog.params}, '$.aggregated'), 1) ELSE 1 END)`;

export function sqliteUsagePort(sqlite: Database): UsagePort {
  const db = drizzleOf(sqlite);
  const r = requestLog;
  const c = unauthenticatedCounts;
  return {
    ids: sqliteLogIds(sqlite),
    known: (fromId, toId, from, to, user) =>
      db
        .select({ user: sql<string>`${r.userId}`, counted: r.counted, status: r.status, requests: REQUESTS })
        .from(r)
        .where(
          and(
            gte(r.id, fromId),
            lt(r.id, toId),
            gte(r.ts, from),
            lt(r.ts, to),
            isNotNull(r.userId),
            user === undefined ? undefined : sql`${r.userId} = ${user}`,
          ),
        )
        .groupBy(r.userId, r.counted, r.status)
        .all(),
    minutes() {
      const row = db
        .select({ first: sql<number | null>`min(${c.minute})`, last: sql<number | null>`max(${c.minute})` })
        .from(c)
        .get();
      return row?.first != null && row.last != null ? { first: row.first, last: row.last } : null;
    },
    anonymous: (from, to) =>
      db
        .select({ code: c.code, requests: sql<number>`SUM(${c.count})` })
        .from(c)
        .where(and(gte(c.minute, from), lt(c.minute, to)))
        .groupBy(c.code)
        .all(),
  };
}
