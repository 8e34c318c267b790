/**
 * The console's usage overview (docs/operator.md § Console), written once over UsagePort: per UTC
 * day across known users, admitted, refused and uncounted as the `usage` report counts them, plus
 * refunded (admitted, then given back: a 5xx, a client gone, a crash) and server errors (5xx); the
 * top users by admitted requests and by compute time (the server's time on their admitted
 * requests); refusals per code, the unauthenticated ones included. Each database only sums.
 */
import { idCeiling, idFloor } from "./log-ids.ts";
import { days, type Tally, tally } from "./usage-report.ts";
import type { UsagePort, UserTotal } from "./usage-port.ts";
import { DAY_MS, utcDayStart } from "./windows.ts";

export type { Tally, UserTotal };

/** How many users each ranking lists. */
export const TOP_USERS = 10;

export interface OverviewDay extends Tally {
  /** UTC date, YYYY-MM-DD. */
  day: string;
  refunded: number;
  serverErrors: number;
}

export interface Overview {
  /** Every day of the range, oldest first, today last (days without requests are zeros). */
  days: OverviewDay[];
  /** By admitted requests, then id. */
  topUsers: UserTotal[];
  /** By compute time, then id. */
  computeByUser: UserTotal[];
  /** Most first. */
  refusedByCode: { code: string; requests: number }[];
  totals: Tally & { refunded: number; serverErrors: number; computeMs: number };
}

export interface UserUsage {
  today: Tally;
  last30Days: Tally;
}

export interface UsageOverview {
  /** The `dayCount` UTC days up to `now`'s. */
  overview(dayCount: number, now: number): Promise<Overview>;
  /** Each of `users`' counts today and over the 30 UTC days up to today (users without rows get zeros). */
  ofUsers(users: readonly string[], now: number): Promise<Map<string, UserUsage>>;
}

/**
 * Ids read per statement. However long the range, each statement stays far inside PostgreSQL's
 * statement timeout (2 s by default: a million rows in one ran close to it) and SQLite, which
 * answers synchronously, lets the event loop serve other requests between chunks.
 */
export const CHUNK_IDS = 200_000;

const zero = (): Tally => ({ admitted: 0, refused: 0, uncounted: 0 });

const ranked = (rows: UserTotal[], by: (r: UserTotal) => number) =>
  rows
    .filter((r) => by(r) > 0)
    .sort((a, b) => by(b) - by(a) || (a.user < b.user ? -1 : 1))
    .slice(0, TOP_USERS);

/** `chunkIds`: ids per statement (tests make it small). */
export function createUsageOverview(port: UsagePort, chunkIds = CHUNK_IDS): UsageOverview {
  const ids = async (from: number, to: number) => [await idFloor(port.ids, from), await idCeiling(port.ids, to)] as const;

  return {
    async overview(dayCount, now) {
      const first = utcDayStart(now) - (dayCount - 1) * DAY_MS;
      const end = utcDayStart(now) + DAY_MS;
      const out: OverviewDay[] = [...days(first, end - 1)].map(([, , day]) => ({ day, ...zero(), refunded: 0, serverErrors: 0 }));
      const logged = (await port.ids.bounds()) !== null;
      const [fromId, toId] = logged ? await ids(first, end) : [0, 0];
      const refused = new Map<string, number>();
      const perUser = new Map<string, UserTotal>();
      for (let a = fromId; a < toId; a += chunkIds) {
        const b = Math.min(a + chunkIds, toId);
        for (const g of await port.outcomes(a, b, first, end)) {
          const row = out[g.day]!;
          tally(row, g);
          if (g.admitted === 1 && g.counted === 0) row.refunded += g.requests;
          if (g.status !== null && g.status >= 500) row.serverErrors += g.requests;
          if (g.code !== null) refused.set(g.code, (refused.get(g.code) ?? 0) + g.requests);
        }
        for (const t of await port.userTotals(a, b, first, end)) {
          const u = perUser.get(t.user);
          if (u) {
            u.admitted += t.admitted;
            u.computeMs += t.computeMs;
          } else perUser.set(t.user, { ...t });
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      const users = [...perUser.values()];
      const anonymous = await port.anonymous(first, end);
      const byCode = new Map(refused);
      for (const c of anonymous) byCode.set(c.code, (byCode.get(c.code) ?? 0) + c.requests);
      const sum = (k: keyof Omit<OverviewDay, "day">) => out.reduce((n, d) => n + d[k], 0);
      return {
        days: out,
        topUsers: ranked(users, (r) => r.admitted),
        computeByUser: ranked(users, (r) => r.computeMs),
        refusedByCode: [...byCode]
          .map(([code, requests]) => ({ code, requests }))
          .sort((a, b) => b.requests - a.requests || (a.code < b.code ? -1 : 1)),
        totals: {
          admitted: sum("admitted"),
          refused: sum("refused"),
          uncounted: sum("uncounted"),
          refunded: sum("refunded"),
          serverErrors: sum("serverErrors"),
          computeMs: users.reduce((n, u) => n + u.computeMs, 0),
        },
      };
    },

    async ofUsers(users, now) {
      const today = utcDayStart(now);
      const [before, todays] = await Promise.all([
        port.ofUsers(users, today - 29 * DAY_MS, today),
        port.ofUsers(users, today, today + DAY_MS),
      ]);
      const out = new Map(users.map((u) => [u, { today: zero(), last30Days: zero() }]));
      for (const g of before) {
        const u = out.get(g.user);
        if (u) tally(u.last30Days, g);
      }
      for (const g of todays) {
        const u = out.get(g.user);
        if (!u) continue;
        tally(u.today, g);
        tally(u.last30Days, g);
      }
      return out;
    },
  };
}
