/**
 * The dashboard's account reads (token generation rate, live tokens, a token's owner, daily usage),
 * one implementation per database: this file's on SQLite, account-store-pg.ts's on PostgreSQL.
 * Cold paths: a few per page view, on drizzle's typed queries.
 */
import { and, desc, eq, gte, isNull } from "drizzle-orm";
import { tokens, usageDays } from "../../db/schema.ts";
import type { Db } from "../../db/open.ts";

export interface TokenRow {
  jti: string;
  issuedAt: number;
  expiresAt: number;
}

export interface AccountStore {
  /** Issue times (epoch ms, oldest first) of the user's tokens issued at or after `since`. */
  issuedSince(userId: string, since: number): Promise<number[]>;
  /** The user's tokens not revoked and expiring after `now`, newest first. */
  liveTokens(userId: string, now: number): Promise<TokenRow[]>;
  /** Who a jti was minted for; null when it was never minted here. */
  tokenOwner(jti: string): Promise<string | null>;
  /** Admitted requests per UTC day (epoch ms of its midnight) from `firstDay` on. */
  usageDays(userId: string, firstDay: number): Promise<{ day: number; admitted: number }[]>;
}

export function createSqliteAccountStore(db: Db): AccountStore {
  return {
    async issuedSince(userId, since) {
      return db
        .select({ issuedAt: tokens.issuedAt })
        .from(tokens)
        .where(and(eq(tokens.userId, userId), gte(tokens.issuedAt, since)))
        .orderBy(tokens.issuedAt)
        .all()
        .map((r) => r.issuedAt);
    },
    async liveTokens(userId, now) {
      return db
        .select({ jti: tokens.jti, issuedAt: tokens.issuedAt, expiresAt: tokens.expiresAt })
        .from(tokens)
        .where(and(eq(tokens.userId, userId), gte(tokens.expiresAt, now + 1), isNull(tokens.revokedAt)))
        .orderBy(desc(tokens.issuedAt))
        .all();
    },
    async tokenOwner(jti) {
      return db.select({ userId: tokens.userId }).from(tokens).where(eq(tokens.jti, jti)).get()?.userId ?? null;
    },
    async usageDays(userId, firstDay) {
      return db
        .select({ day: usageDays.day, admitted: usageDays.admitted })
        .from(usageDays)
        .where(and(eq(usageDays.userId, userId), gte(usageDays.day, firstDay)))
        .all();
    },
  };
}
