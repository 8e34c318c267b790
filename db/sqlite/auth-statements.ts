/**
 * The AuthStore's statements on SQLite (auth-port.ts), prepared once per store: drizzle's typed
 * queries, raw statements for the reads of every live request (db/sqlite/open.ts perRawConnection says
 * why). A token issue under the lock is one BEGIN IMMEDIATE transaction: the count is read under
 * the write lock, so no other connection inserts between.
 */
import type { Database } from "bun:sqlite";
import { and, asc, eq, gte, isNull, sql } from "drizzle-orm";
import { type Db, drizzleOf, waiting } from "./open.ts";
import { settings, tokens, users } from "./schema.ts";
import type { AuthPort } from "../../src/auth/auth-port.ts";
import type { IssuedToken, UserRecord } from "../../src/auth/auth-store.ts";

const p = sql.placeholder;
/** Written rows are returned and counted: bun-sqlite's run result is untyped in drizzle. */
const ID = { id: users.id };
const JTI = { jti: tokens.jti };

/** Issue times (oldest first) of the user's tokens issued at or after `since`: the issue limit's read, also the dashboard's. */
export const issueTimes = (db: Db, userId: string, since: number): number[] =>
  db
    .select({ issuedAt: tokens.issuedAt })
    .from(tokens)
    .where(and(eq(tokens.userId, userId), gte(tokens.issuedAt, since)))
    .orderBy(asc(tokens.issuedAt))
    .all()
    .map((r) => r.issuedAt);

/** A users row as SQLite gives it: `disabled` and `admin` are 0 or 1. */
export type UserRow = Omit<UserRecord, "disabled" | "admin"> & { disabled: number; admin: number };
export const userOf = (row: UserRow): UserRecord => ({ ...row, disabled: row.disabled !== 0, admin: row.admin !== 0 });

/** A user's columns with its plan's limits (`u`, `p`): the plan is read with the user, so a change holds from the next request. */
export const USER_COLUMNS =
  "u.id, u.email, u.disabled, u.per_minute AS perMinute, u.per_day AS perDay, u.created_at AS createdAt, u.plan, " +
  "p.per_minute AS planPerMinute, p.per_day AS planPerDay, u.admin";
export const USER_FROM = "users u LEFT JOIN plans p ON p.name = coalesce(u.plan, 'free')";

export function sqliteAuthPort(sqlite: Database): AuthPort {
  const db = drizzleOf(sqlite);
  const userById = sqlite.prepare<UserRow, [string]>(`SELECT ${USER_COLUMNS} FROM ${USER_FROM} WHERE u.id = ?`);
  const revoked = sqlite.prepare<{ one: number }, [string]>("SELECT 1 AS one FROM tokens WHERE jti = ? AND revoked_at IS NOT NULL");
  const userWithRevocation = sqlite.prepare<UserRow & { revoked: number }, [string, string]>(
    `SELECT ${USER_COLUMNS}, EXISTS (SELECT 1 FROM tokens WHERE jti = ?2 AND revoked_at IS NOT NULL) AS revoked FROM ${USER_FROM} WHERE u.id = ?1`,
  );
  const upsertUser = db
    .insert(users)
    .values({ id: p("id"), email: p("email"), createdAt: p("now") })
    .onConflictDoUpdate({
      target: users.id,
      set: { email: sql`excluded.email` },
      setWhere: sql`${users.email} IS NULL AND excluded.email IS NOT NULL`,
    })
    .prepare();
  const insertUser = db
    .insert(users)
    .values({ id: p("id"), email: p("email"), createdAt: p("now") })
    .onConflictDoNothing()
    .returning(ID)
    .prepare();
  const disable = db
    .update(users)
    .set({ disabled: sql`${p("disabled")}` })
    .where(eq(users.id, p("id")))
    .returning(ID)
    .prepare();
  const resetLimits = db
    .update(users)
    .set({ perMinute: null, perDay: null })
    .where(eq(users.id, p("id")))
    .returning(ID)
    .prepare();
  const setLimits = db
    .update(users)
    .set({ perMinute: sql`coalesce(${p("perMinute")}, ${users.perMinute})`, perDay: sql`coalesce(${p("perDay")}, ${users.perDay})` })
    .where(eq(users.id, p("id")))
    .returning(ID)
    .prepare();
  const insertToken = db
    .insert(tokens)
    .values({ jti: p("jti"), userId: p("userId"), issuedAt: p("issuedAt"), expiresAt: p("expiresAt") })
    .prepare();
  const allTokens = db.select().from(tokens).orderBy(asc(tokens.issuedAt), asc(tokens.jti)).prepare();
  const tokensOf = db
    .select()
    .from(tokens)
    .where(eq(tokens.userId, p("userId")))
    .orderBy(asc(tokens.issuedAt), asc(tokens.jti))
    .prepare();
  const revoke = db
    .update(tokens)
    .set({ revokedAt: sql`${p("now")}` })
    .where(and(eq(tokens.jti, p("jti")), isNull(tokens.revokedAt)))
    .returning(JTI)
    .prepare();
  const revokeUnknown = db
    .insert(tokens)
    .values({ jti: p("jti"), userId: "", issuedAt: 0, expiresAt: 0, revokedAt: p("now") })
    .onConflictDoNothing()
    .returning(JTI)
    .prepare();
  const setting = db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, p("key")))
    .prepare();
  const upsertSetting = db
    .insert(settings)
    .values({ key: p("key"), value: p("value") })
    .onConflictDoUpdate({
      target: settings.key,
      set: { value: sql`excluded.value` },
      setWhere: sql`${settings.value} IS NOT excluded.value`,
    })
    .prepare();
  const insertSetting = db
    .insert(settings)
    .values({ key: p("key"), value: p("value") })
    .onConflictDoNothing()
    .returning({ key: settings.key })
    .prepare();

  const record = (t: IssuedToken, email: string | null, now: number) => {
    upsertUser.run({ id: t.userId, email, now });
    insertToken.run({ ...t });
  };
  const issue = sqlite.transaction((list: IssuedToken[], email: string | null, now: number) => {
    for (const t of list) record(t, email, now);
  });
  const issueWithin = sqlite.transaction(
    (t: IssuedToken, email: string | null, now: number, since: number, allow: (recent: number[]) => boolean) => {
      const recent = issueTimes(db, t.userId, since);
      const issued = allow(recent);
      if (issued) record(t, email, now);
      return { issued, recent };
    },
  );

  return {
    user(id) {
      const row = userById.get(id);
      return row ? userOf(row) : null;
    },
    upsertUser: (id, email, now, wait) => void waiting(sqlite, wait, () => upsertUser.run({ id, email, now })),
    insertUser: (id, email, now) => insertUser.all({ id, email, now }).length === 1,
    setDisabled: (id, disabled) => disable.all({ id, disabled: disabled ? 1 : 0 }).length === 1,
    setLimits: (id, limits) => (limits === "reset" ? resetLimits.all({ id }) : setLimits.all({ id, ...limits })).length === 1,
    issue: (list, email, now) => issue.immediate(list, email, now),
    issueWithin: (t, email, now, since, allow) => issueWithin.immediate(t, email, now, since, allow),
    tokens: (userId) => (userId !== undefined ? tokensOf.all({ userId }) : allTokens.all()),
    revoke: (jti, now) => revoke.all({ jti, now }).length === 1,
    revokeUnknown: (jti, now) => revokeUnknown.all({ jti, now }).length === 1,
    isRevoked: (jti) => revoked.get(jti) !== null,
    userWithRevocation(id, jti) {
      const row = userWithRevocation.get(id, jti);
      if (!row) return null;
      const { revoked: r, ...user } = row;
      return { user: userOf(user), revoked: r !== 0 };
    },
    setting: (key) => setting.get({ key })?.value ?? null,
    setSetting: (key, value) => void upsertSetting.run({ key, value }),
    insertSettingIfAbsent: (key, value) => insertSetting.all({ key, value }).length === 1,
  };
}
