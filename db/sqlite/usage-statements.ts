/** usage-report.ts's aggregates on SQLite, on drizzle's typed queries (run once per `usage` command: nothing kept prepared). */
import type { Database } from "bun:sqlite";
import { and, eq, gte, inArray, isNotNull, lt, or, sql } from "drizzle-orm";
import { drizzleOf } from "./open.ts";
import { requestLog, unauthenticatedCounts } from "./schema.ts";
import { sqliteLogIds } from "./log-id-statements.ts";
import type { UsagePort } from "../../src/metering/usage-port.ts";
import { DAY_MS } from "../../src/metering/windows.ts";

/** A row written when the audit queue was full stands for n requests (audit-queue.ts). */
const REQUESTS = sql<number>`SUM(CASE WHEN ${requestLog.requestId} = 'aggregated' THEN coalesce(json_extract(${requestLog.params}, '$.aggregated'), 1) ELSE 1 END)`;

/** Admitted rows carry the admitting process's boot id; one still counted is admitted too (rows from before boot ids). */
const ADMITTED = sql<number>`CASE WHEN ${requestLog.counted} = 1 OR ${requestLog.bootId} IS NOT NULL THEN 1 ELSE 0 END`;

export function sqliteUsagePort(sqlite: Database): UsagePort {
  const db = drizzleOf(sqlite);
  const r = requestLog;
  const c = unauthenticatedCounts;
  const range = (fromId: number, toId: number, from: number, to: number) =>
    and(gte(r.id, fromId), lt(r.id, toId), gte(r.ts, from), lt(r.ts, to), isNotNull(r.userId));
  return {
    ids: sqliteLogIds(sqlite),
    known: (fromId, toId, from, to, user) =>
      db
        .select({
          user: sql<string>`${r.userId}`,
          counted: r.counted,
          status: r.status,
          requests: REQUESTS,
          computeMs: sql<number>`coalesce(SUM(CASE WHEN ${ADMITTED} = 1 THEN ${r.durationMs} END), 0)`,
        })
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
    outcomes: (fromId, toId, from, to) => {
      const day = sql<number>`CAST((${r.ts} - ${from}) / ${DAY_MS} AS INTEGER)`;
      const code = sql<string | null>`CASE WHEN ${r.status} = 429 THEN coalesce(${r.code}, 'RATE_LIMITED') END`;
      return db
        .select({ day, counted: r.counted, code, admitted: ADMITTED, status: r.status, requests: REQUESTS })
        .from(r)
        .where(range(fromId, toId, from, to))
        .groupBy(day, r.counted, code, ADMITTED, r.status)
        .all();
    },
    userTotals: (fromId, toId, from, to) =>
      db
        .select({
          user: sql<string>`${r.userId}`,
          admitted: sql<number>`SUM(${r.counted})`,
          computeMs: sql<number>`coalesce(SUM(${r.durationMs}), 0)`,
        })
        .from(r)
        .where(and(range(fromId, toId, from, to), or(eq(r.counted, 1), isNotNull(r.bootId))))
        .groupBy(r.userId)
        .all(),
    ofUsers: (users, from, to) =>
      users.length === 0
        ? []
        : db
            .select({ user: sql<string>`${r.userId}`, counted: r.counted, status: r.status, requests: REQUESTS })
            .from(r)
            .where(and(inArray(r.userId, [...users]), gte(r.ts, from), lt(r.ts, to)))
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
