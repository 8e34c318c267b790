/**
 * What a signed-in user can see and do with their API access: generate a token (the same HS256
 * token as the CLI's, at most 10 an hour), list and revoke their live tokens, and read their usage.
 */
import type { Database } from "bun:sqlite";
import { and, desc, eq, gte } from "drizzle-orm";
import { tokens, usageDays } from "../../db/schema.ts";
import type { Db } from "../../db/open.ts";
import { isoTime, type Clock } from "../clock.ts";
import { mintToken, recordToken, revokeToken } from "../auth/index.ts";
import { DAY_MS, MINUTE_MS, utcDayStart, type Limiter, type Limits } from "../metering/index.ts";
import type { GeneratedToken, TokenView, UsageView } from "./view-model.ts";

/** DECISIONS §5a: token generation is limited per user. */
export const TOKENS_PER_HOUR = 10;
const HOUR_MS = 3600_000;
const USAGE_DAYS = 30;

/** A refusal the dashboard shows as it is (the status and code of the envelope). */
export class AccountError extends Error {
  constructor(readonly status: 403 | 404 | 429, readonly code: "FORBIDDEN" | "NOT_FOUND" | "RATE_LIMITED", message: string, readonly retryAfter?: number) {
    super(message);
  }
}

export interface AccountDeps {
  db: Db;
  sqlite: Database;
  clock: Clock;
  limiter: Limiter;
  secret: string;
  ttlSeconds: number;
  baseUrl: () => string;
}

export function createAccount(d: AccountDeps) {
  const issuedSince = (userId: string, since: number) =>
    d.db.select({ issuedAt: tokens.issuedAt }).from(tokens).where(and(eq(tokens.userId, userId), gte(tokens.issuedAt, since))).orderBy(tokens.issuedAt).all();

  return {
    tokensLeftThisHour(userId: string): number {
      return Math.max(0, TOKENS_PER_HOUR - issuedSince(userId, d.clock.now() - HOUR_MS + 1).length);
    },

    async generate(user: { id: string; email: string | null; disabled: boolean }): Promise<GeneratedToken> {
      if (user.disabled) throw new AccountError(403, "FORBIDDEN", "your account is disabled, so it cannot generate tokens; ask the operator to enable it");
      const now = d.clock.now();
      const recent = issuedSince(user.id, now - HOUR_MS + 1);
      if (recent.length >= TOKENS_PER_HOUR) {
        const retryAfter = Math.max(1, Math.ceil((recent[recent.length - TOKENS_PER_HOUR]!.issuedAt + HOUR_MS - now) / 1000));
        throw new AccountError(429, "RATE_LIMITED", `at most ${TOKENS_PER_HOUR} tokens an hour; try again in ${retryAfter}s`, retryAfter);
      }
      const t = await mintToken({ secret: d.secret, userId: user.id, ttlSeconds: d.ttlSeconds, clock: d.clock, email: user.email ?? undefined });
      recordToken(d.sqlite, { jti: t.jti, userId: user.id, issuedAt: now, expiresAt: t.exp * 1000 });
      return {
        token: t.token,
        jti: t.jti,
        issuedAt: isoTime(now),
        expiresAt: isoTime(t.exp * 1000),
        curl: `curl -H "Authorization: Bearer ${t.token}" '${d.baseUrl()}/v1/graph-stats/chart?lookback=60&graph_method=mst'`,
      };
    },

    /** The user's tokens that still work (not expired, not revoked), newest first. */
    liveTokens(userId: string): TokenView[] {
      const now = d.clock.now();
      return d.db.select().from(tokens).where(and(eq(tokens.userId, userId), gte(tokens.expiresAt, now + 1))).orderBy(desc(tokens.issuedAt)).all()
        .filter((t) => t.revokedAt === null)
        .map((t) => ({ jti: t.jti, issuedAt: isoTime(t.issuedAt), expiresAt: isoTime(t.expiresAt) }));
    },

    /** Revokes one of the user's own tokens; another user's jti is "not found", never revoked. */
    revoke(userId: string, jti: string): void {
      const row = d.db.select({ userId: tokens.userId }).from(tokens).where(eq(tokens.jti, jti)).get();
      if (!row || row.userId !== userId) throw new AccountError(404, "NOT_FOUND", `no token ${jti.slice(0, 8)}… of yours`);
      revokeToken(d.sqlite, jti, d.clock.now());
    },

    usage(userId: string, limits: Limits): UsageView {
      const state = d.limiter.peek(userId, limits);
      const today = utcDayStart(state.now);
      const first = today - (USAGE_DAYS - 1) * DAY_MS;
      const rows = d.db.select().from(usageDays).where(and(eq(usageDays.userId, userId), gte(usageDays.day, first))).all();
      const byDay = new Map(rows.map((r) => [r.day, r.admitted]));
      return {
        today: state.dayUsed,
        perDay: limits.perDay,
        minute: {
          used: state.minuteUsed,
          limit: limits.perMinute,
          resetAt: Math.ceil((state.oldestInWindow === null ? state.now : state.oldestInWindow + MINUTE_MS) / 1000),
        },
        days: Array.from({ length: USAGE_DAYS }, (_, i) => {
          const day = first + i * DAY_MS;
          return { date: isoTime(day).slice(0, 10), admitted: byDay.get(day) ?? 0 };
        }),
      };
    },
  };
}

export type Account = ReturnType<typeof createAccount>;
