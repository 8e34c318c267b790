/** The session store's statements on SQLite (session-port.ts), drizzle's typed queries prepared once per store. */
import { and, eq, lt, lte, sql } from "drizzle-orm";
import type { Db } from "./open.ts";
import { identities, sessions, spentSignIns, users } from "./schema.ts";
import type { SessionPort } from "../../src/dashboard/session-port.ts";

const p = sql.placeholder;

export function sqliteSessionPort(db: Db): SessionPort {
  const byHash = db
    .select()
    .from(sessions)
    .where(eq(sessions.idHash, p("h")))
    .prepare();
  const touch = db
    .update(sessions)
    .set({ lastSeenAt: sql`${p("now")}` })
    .where(eq(sessions.idHash, p("h")))
    .prepare();
  const remove = db
    .delete(sessions)
    .where(eq(sessions.idHash, p("h")))
    .prepare();
  const spend = db
    .insert(spentSignIns)
    .values({ stateHash: sql`${p("h")}`, expiresAt: sql`${p("until")}` })
    .onConflictDoNothing()
    .returning({ h: spentSignIns.stateHash })
    .prepare();
  return {
    insert: (row) => void db.insert(sessions).values(row).run(),
    byHash: (h) => byHash.get({ h }) ?? null,
    touch: (h, now) => void touch.run({ h, now }),
    delete: (h) => void remove.run({ h }),
    deleteSeenBefore: (before) =>
      db.delete(sessions).where(lt(sessions.lastSeenAt, before)).returning({ idHash: sessions.idHash }).all().length,
    upsertIdentity: ({ issuer, subject, name }, userId, now) =>
      db
        .insert(identities)
        .values({ issuer, subject, userId, name, createdAt: now, lastSignInAt: now })
        .onConflictDoUpdate({ target: [identities.issuer, identities.subject], set: { lastSignInAt: now, name } })
        .returning({ userId: identities.userId })
        .get()!.userId,
    upsertUser: (userId, email, now) =>
      void db
        .insert(users)
        .values({ id: userId, email, createdAt: now })
        .onConflictDoUpdate({ target: users.id, set: { email: sql`excluded.email` }, setWhere: sql`excluded.email IS NOT NULL` })
        .run(),
    identityName: (userId, issuer) =>
      db
        .select({ name: identities.name })
        .from(identities)
        .where(and(eq(identities.userId, userId), eq(identities.issuer, issuer)))
        .get()?.name ?? null,
    insertSpent: (h, until) => spend.all({ h, until }).length === 1,
    deleteSpentUntil: (now) =>
      db.delete(spentSignIns).where(lte(spentSignIns.expiresAt, now)).returning({ h: spentSignIns.stateHash }).all().length,
  };
}
