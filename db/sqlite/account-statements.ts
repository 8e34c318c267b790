/** The dashboard's account reads on SQLite (account-store.ts), on drizzle's typed queries. */
import { and, desc, eq, gte, isNull } from "drizzle-orm";
import type { Db } from "./open.ts";
import { tokens, usageDays } from "./schema.ts";
import { issueTimes } from "./auth-statements.ts";
import type { AccountStore } from "../../src/dashboard/account-store.ts";

export function createSqliteAccountStore(db: Db): AccountStore {
  return {
    issuedSince: async (userId, since) => issueTimes(db, userId, since),
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
