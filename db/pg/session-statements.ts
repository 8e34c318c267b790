/**
 * The session store's statements on PostgreSQL (session-port.ts, README.md § PostgreSQL): a session
 * created on one instance opens on every other. drizzle's typed pg-core queries; the per-page read
 * is prepared.
 */
import { and, eq, lt, lte, sql } from "drizzle-orm";
import type { PgDb } from "./open.ts";
import { identities, sessions, spentSignIns, users } from "./schema.ts";
import type { SessionPort } from "../../src/dashboard/session-port.ts";

export function pgSessionPort(db: PgDb): SessionPort {
  const byHash = db
    .select()
    .from(sessions)
    .where(eq(sessions.idHash, sql.placeholder("h")))
    .prepare("gs_session_by_hash");
  return {
    insert: async (row) => void (await db.insert(sessions).values(row)),
    byHash: async (h) => (await byHash.execute({ h }))[0] ?? null,
    touch: async (h, now) => void (await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, h))),
    delete: async (h) => void (await db.delete(sessions).where(eq(sessions.idHash, h))),
    deleteSeenBefore: async (before) =>
      (await db.delete(sessions).where(lt(sessions.lastSeenAt, before)).returning({ idHash: sessions.idHash })).length,
    async upsertIdentity({ issuer, subject, name }, userId, now) {
      const [row] = await db
        .insert(identities)
        .values({ issuer, subject, userId, name, createdAt: now, lastSignInAt: now })
        .onConflictDoUpdate({ target: [identities.issuer, identities.subject], set: { lastSignInAt: now, name } })
        .returning({ userId: identities.userId });
      return row!.userId;
    },
    upsertUser: async (userId, email, now) =>
      void (await db
        .insert(users)
        .values({ id: userId, email, createdAt: now })
        .onConflictDoUpdate({ target: users.id, set: { email: sql`excluded.email` }, setWhere: sql`excluded.email IS NOT NULL` })),
    async identityName(userId, issuer) {
      const [row] = await db
        .select({ name: identities.name })
        .from(identities)
        .where(and(eq(identities.userId, userId), eq(identities.issuer, issuer)));
      return row?.name ?? null;
    },
    insertSpent: async (h, until) =>
      (
        await db
          .insert(spentSignIns)
          .values({ stateHash: h, expiresAt: until })
          .onConflictDoNothing()
          .returning({ h: spentSignIns.stateHash })
      ).length === 1,
    deleteSpentUntil: async (now) =>
      (await db.delete(spentSignIns).where(lte(spentSignIns.expiresAt, now)).returning({ h: spentSignIns.stateHash })).length,
  };
}
