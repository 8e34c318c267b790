/** The dashboard's account reads on PostgreSQL (see account-store.ts), on drizzle's typed pg-core queries. */
import { and, desc, eq, gte, isNull } from "drizzle-orm";
import { tokens, usageDays } from "./schema.ts";
import type { PgDb } from "./open.ts";
import { issueTimes } from "./auth-statements.ts";
import type { AccountStore } from "../../src/dashboard/account-store.ts";

export function createPgAccountStore(db: PgDb): AccountStore {
  return {
    issuedSince: (userId, since) => issueTimes(db, userId, since),
    liveTokens(userId, now) {
      return db
        .select({ jti: tokens.jti, issuedAt: tokens.issuedAt, expiresAt: tokens.expiresAt })
        .from(tokens)
        .where(and(eq(tokens.userId, userId), gte(tokens.expiresAt, now + 1), isNull(tokens.revokedAt)))
        .orderBy(desc(tokens.issuedAt));
    },
    async tokenOwner(jti) {
      return (await db.select({ userId: tokens.userId }).from(tokens).where(eq(tokens.jti, jti)))[0]?.userId ?? null;
    },
    usageDays(userId, firstDay) {
      return db
        .select({ day: usageDays.day, admitted: usageDays.admitted })
        .from(usageDays)
        .where(and(eq(usageDays.userId, userId), gte(usageDays.day, firstDay)));
    },
  };
}
