/**
 * Dashboard sessions and sign-in identities on PostgreSQL (README.md § PostgreSQL): a session
 * created on one instance opens on every other. Same rules as session-store.ts (idle expiry, touch
 * at most once a minute, only the id's hash stored), on drizzle's typed pg-core queries; the
 * per-page read is prepared.
 */
import { and, eq, lt, sql } from "drizzle-orm";
import { identities, sessions, users } from "../../db/pg/schema.ts";
import type { PgDb } from "../../db/pg/open.ts";
import type { Clock } from "../clock.ts";
import { hashSessionId, newSession, sessionAge, SESSION_ID, SESSION_IDLE_MS, userIdFor, type SessionStore } from "./session-store.ts";

export function createPgSessionStore(db: PgDb, clock: Clock): SessionStore {
  const byHash = db
    .select()
    .from(sessions)
    .where(eq(sessions.idHash, sql.placeholder("h")))
    .prepare("gs_session_by_hash");
  return {
    async create(userId, issuer) {
      const { id, csrf, row } = newSession(userId, issuer, clock.now());
      await db.insert(sessions).values(row);
      return { id, csrf };
    },
    async get(id) {
      if (!SESSION_ID.test(id)) return null;
      const h = hashSessionId(id);
      const [row] = await byHash.execute({ h });
      if (!row) return null;
      const now = clock.now();
      const age = sessionAge(row.lastSeenAt, now);
      if (age === "expired") {
        await db.delete(sessions).where(eq(sessions.idHash, h));
        return null;
      }
      if (age === "touch") await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, h));
      return { userId: row.userId, issuer: row.issuer, csrf: row.csrf, createdAt: row.createdAt, lastSeenAt: now };
    },
    async destroy(id) {
      await db.delete(sessions).where(eq(sessions.idHash, hashSessionId(id)));
    },
    async prune() {
      return (
        await db
          .delete(sessions)
          .where(lt(sessions.lastSeenAt, clock.now() - SESSION_IDLE_MS))
          .returning({ idHash: sessions.idHash })
      ).length;
    },
    async signIn({ issuer, subject, email, name }) {
      const now = clock.now();
      return db.transaction(async (tx) => {
        // Two instances signing the same account in at once: the insert of one is the other's update.
        const [row] = await tx
          .insert(identities)
          .values({ issuer, subject, userId: userIdFor(issuer, subject), name, createdAt: now, lastSignInAt: now })
          .onConflictDoUpdate({ target: [identities.issuer, identities.subject], set: { lastSignInAt: now, name } })
          .returning({ userId: identities.userId });
        const userId = row!.userId;
        await tx.insert(users).values({ id: userId, email, createdAt: now }).onConflictDoNothing();
        if (email) await tx.update(users).set({ email }).where(eq(users.id, userId));
        return userId;
      });
    },
    async identityName(userId, issuer) {
      const [row] = await db
        .select({ name: identities.name })
        .from(identities)
        .where(and(eq(identities.userId, userId), eq(identities.issuer, issuer)));
      return row?.name ?? null;
    },
  };
}
