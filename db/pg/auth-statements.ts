/**
 * The AuthStore's statements on PostgreSQL (auth-port.ts, README.md § PostgreSQL): drizzle's typed
 * queries over pg-core; the reads of every live request (the user with its token's revocation, one
 * statement) are prepared once per process as named statements. A token issue under the lock queues on a
 * transaction-scoped advisory lock per user, on every instance sharing the database.
 */
import { and, asc, eq, gte, isNotNull, isNull, sql } from "drizzle-orm";
import type { PgDb } from "./open.ts";
import { plans, settings, tokens, users } from "./schema.ts";
import type { AuthPort } from "../../src/auth/auth-port.ts";
import type { IssuedToken } from "../../src/auth/auth-store.ts";

const p = sql.placeholder;
export const USER = {
  id: users.id,
  email: users.email,
  disabled: users.disabled,
  perMinute: users.perMinute,
  perDay: users.perDay,
  createdAt: users.createdAt,
  plan: users.plan,
  planPerMinute: plans.perMinute,
  planPerDay: plans.perDay,
  admin: users.admin,
};
/** The user's plan, read with it (db/sqlite/auth-statements.ts USER_FROM). */
export const PLAN_OF_USER = eq(plans.name, sql`coalesce(${users.plan}, 'free')`);
const ID = { id: users.id };
const JTI = { jti: tokens.jti };

type Tx = Pick<PgDb, "insert">;

/** Issue times (oldest first) of the user's tokens issued at or after `since`: the issue limit's read, also the dashboard's. */
export async function issueTimes(q: Pick<PgDb, "select">, userId: string, since: number): Promise<number[]> {
  const rows = await q
    .select({ issuedAt: tokens.issuedAt })
    .from(tokens)
    .where(and(eq(tokens.userId, userId), gte(tokens.issuedAt, since)))
    .orderBy(asc(tokens.issuedAt));
  return rows.map((r) => r.issuedAt);
}

export function pgAuthPort(db: PgDb): AuthPort {
  const userById = db
    .select(USER)
    .from(users)
    .leftJoin(plans, PLAN_OF_USER)
    .where(eq(users.id, p("id")))
    .prepare("gs_user_by_id");
  const revoked = db
    .select({ x: tokens.jti })
    .from(tokens)
    .where(and(eq(tokens.jti, p("jti")), isNotNull(tokens.revokedAt)))
    .prepare("gs_token_revoked");
  const userWithRevocation = db
    .select({
      ...USER,
      revoked: sql<boolean>`EXISTS (SELECT 1 FROM ${tokens} WHERE ${tokens.jti} = ${p("jti")} AND ${tokens.revokedAt} IS NOT NULL)`,
    })
    .from(users)
    .leftJoin(plans, PLAN_OF_USER)
    .where(eq(users.id, p("id")))
    .prepare("gs_user_with_revocation");
  const setting = db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, p("key")))
    .prepare("gs_setting");
  const byIssue = [asc(tokens.issuedAt), asc(tokens.jti)];
  const tokensOf = db
    .select()
    .from(tokens)
    .where(eq(tokens.userId, p("userId")))
    .orderBy(...byIssue)
    .prepare("gs_tokens_of");
  const allTokens = db
    .select()
    .from(tokens)
    .orderBy(...byIssue)
    .prepare("gs_tokens_all");

  const upsertUser = (q: Tx, id: string, email: string | null, now: number) =>
    q
      .insert(users)
      .values({ id, email, createdAt: now })
      .onConflictDoUpdate({
        target: users.id,
        set: { email: sql`excluded.email` },
        setWhere: sql`${users.email} IS NULL AND excluded.email IS NOT NULL`,
      });
  const record = async (tx: Tx, t: IssuedToken, email: string | null, now: number) => {
    await upsertUser(tx, t.userId, email, now);
    await tx.insert(tokens).values(t);
  };
  const touched = async (rows: Promise<unknown[]>) => (await rows).length === 1;

  return {
    user: async (id) => (await userById.execute({ id }))[0] ?? null,
    upsertUser: async (id, email, now) => void (await upsertUser(db, id, email, now)),
    insertUser: (id, email, now) => touched(db.insert(users).values({ id, email, createdAt: now }).onConflictDoNothing().returning(ID)),
    setDisabled: (id, disabled) => touched(db.update(users).set({ disabled }).where(eq(users.id, id)).returning(ID)),
    setLimits(id, limits) {
      const set =
        limits === "reset"
          ? { perMinute: null, perDay: null }
          : {
              perMinute: sql`coalesce(${limits.perMinute}::int, ${users.perMinute})`,
              perDay: sql`coalesce(${limits.perDay}::int, ${users.perDay})`,
            };
      return touched(db.update(users).set(set).where(eq(users.id, id)).returning(ID));
    },
    issue: (list, email, now) =>
      db.transaction(async (tx) => {
        for (const t of list) await record(tx, t, email, now);
      }),
    issueWithin: (t, email, now, since, allow) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`gs-tokens:${t.userId}`}, 0))`);
        const recent = await issueTimes(tx, t.userId, since);
        const issued = allow(recent);
        if (issued) await record(tx, t, email, now);
        return { issued, recent };
      }),
    tokens: (userId) => (userId !== undefined ? tokensOf.execute({ userId }) : allTokens.execute()),
    revoke: (jti, now) =>
      touched(
        db
          .update(tokens)
          .set({ revokedAt: now })
          .where(and(eq(tokens.jti, jti), isNull(tokens.revokedAt)))
          .returning(JTI),
      ),
    revokeUnknown: (jti, now) =>
      touched(
        db.insert(tokens).values({ jti, userId: "", issuedAt: 0, expiresAt: 0, revokedAt: now }).onConflictDoNothing().returning(JTI),
      ),
    isRevoked: async (jti) => (await revoked.execute({ jti })).length > 0,
    async userWithRevocation(id, jti) {
      const row = (await userWithRevocation.execute({ id, jti }))[0];
      if (!row) return null;
      const { revoked: r, ...user } = row;
      return { user, revoked: r };
    },
    setting: async (key) => (await setting.execute({ key }))[0]?.value ?? null,
    async setSetting(key, value) {
      await db
        .insert(settings)
        .values({ key, value })
        .onConflictDoUpdate({
          target: settings.key,
          set: { value: sql`excluded.value` },
          setWhere: sql`${settings.value} IS DISTINCT FROM excluded.value`,
        });
    },
    insertSettingIfAbsent: (key, value) =>
      touched(db.insert(settings).values({ key, value }).onConflictDoNothing().returning({ key: settings.key })),
  };
}
