/**
 * The operator's `usage` report: admitted, refused and uncounted requests per user and UTC day
 * from the audit log, and unauthenticated requests per day and code from their per-minute counts.
 * Written once: days are cut by utcDayStart here and each database only sums one day's rows
 * (db/sqlite/usage-statements.ts, db/pg/usage-statements.ts), found by id (log-ids.ts) and filtered exactly on ts.
 */
import { isoTime } from "../clock.ts";
import { idCeiling, idFloor, ORDER_SLACK_MS } from "./log-ids.ts";
import type { UsagePort } from "./usage-port.ts";
import { DAY_MS, utcDayStart } from "./windows.ts";

export interface UsageRow {
  user: string | null;
  day: string;
  admitted: number;
  refused: number;
  uncounted: number;
  /** Unauthenticated rows only: the error code they were refused with. */
  code?: string;
  /** Known users' rows only: the server's time on the admitted requests, ms. */
  computeMs?: number;
}

export interface UsageReport {
  /** Known users' rows since `since` (epoch ms), of one user when given. */
  known(since: number, user: string | undefined): Promise<UsageRow[]>;
  /** Unauthenticated requests per UTC day and code since `since`. */
  anonymous(since: number): Promise<UsageRow[]>;
}

/** The three counts of the report, which the console shows too. */
export interface Tally {
  admitted: number;
  refused: number;
  uncounted: number;
}

/**
 * Adds one group of rows to its counts: counted is admitted, a 429 refused, any other answer
 * uncounted. A row still open (no status) and uncounted is an unanswered request given back
 * (reconcile.ts): none of the three.
 */
export function tally(t: Tally, g: { counted: number; status: number | null; requests: number }): void {
  if (g.counted === 1) t.admitted += g.requests;
  else if (g.status === 429) t.refused += g.requests;
  else if (g.status !== null) t.uncounted += g.requests;
}

/** Each UTC day from `first`'s to `last`'s as its [from, to), the first from `first` itself. */
export function* days(first: number, last: number): Generator<[from: number, to: number, day: string]> {
  for (let day = utcDayStart(first); day <= last; day += DAY_MS) yield [Math.max(day, first), day + DAY_MS, isoTime(day).slice(0, 10)];
}

export function createUsageReport(port: UsagePort): UsageReport {
  return {
    async known(since, user) {
      const b = await port.ids.bounds();
      if (!b) return [];
      // The log's time span, within the slack by which rows are out of id order.
      const oldest = (await port.ids.atOrAfter(b.min))!.ts - ORDER_SLACK_MS;
      const newest = (await port.ids.atOrAfter(b.max))!.ts + ORDER_SLACK_MS;
      const rows: UsageRow[] = [];
      for (const [from, to, day] of days(Math.max(since, oldest), newest)) {
        const byUser = new Map<string, UsageRow>();
        for (const g of await port.known(await idFloor(port.ids, from), await idCeiling(port.ids, to), from, to, user)) {
          let row = byUser.get(g.user);
          if (!row) byUser.set(g.user, (row = { user: g.user, day, admitted: 0, refused: 0, uncounted: 0, computeMs: 0 }));
          tally(row, g);
          row.computeMs! += g.computeMs;
        }
        rows.push(...byUser.values());
      }
      return rows;
    },
    async anonymous(since) {
      const span = await port.minutes();
      if (!span) return [];
      const rows: UsageRow[] = [];
      for (const [from, to, day] of days(Math.max(since, span.first), span.last)) {
        for (const c of await port.anonymous(from, to))
          rows.push({ user: null, day, admitted: 0, refused: 0, uncounted: c.requests, code: c.code });
      }
      return rows;
    },
  };
}
