/**
 * The AuthStore on PostgreSQL (README.md § PostgreSQL): drizzle's typed queries over pg-core, prepared
 * once per process (named statements; a few per request at most: the user's flags and the
 * revocation check). Results match auth-store-sqlite.ts exactly (shared tests in auth-store.test.ts).
 */
import { and, asc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { PgDb } from "../../db/pg/open.ts";
import { settings, tokens, users } from "../../db/pg/schema.ts";
import type { AuthStore } from "./auth-store.ts";
import { checkLimits } from "./user-limits.ts";
import { isSettled, type UserRecord } from "./user-store.ts";
import type { TokenRecord } from "./token-store.ts";

const p = sql.placeholder;
const USER = {
  id: users.id,
  email: users.email,
  disabled: users.disabled,
  perMinute: users.perMinute,
  perDay: users.perDay,
  createdAt: users.createdAt,
};
const TOKEN = {
  jti: tokens.jti,
  userId: tokens.userId,
  issuedAt: tokens.issuedAt,
  expiresAt: tokens.expiresAt,
  revokedAt: tokens.revokedAt,
};

export function createPgAuthStore(db: PgDb): AuthStore {
  const userById = db
    .select(USER)
    .from(users)
    .where(eq(users.id, p("id")))
    .prepare("gs_user_by_id");
  const revoked = db
    .select({ x: tokens.jti })
    .from(tokens)
    .where(and(eq(tokens.jti, p("jti")), isNotNull(tokens.revokedAt)))
    .prepare("gs_token_revoked");
  const setting = db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, p("key")))
    .prepare("gs_setting");
  const tokensOf = db
    .select(TOKEN)
    .from(tokens)
    .where(eq(tokens.userId, p("userId")))
    .orderBy(asc(tokens.issuedAt), asc(tokens.jti))
    .prepare("gs_tokens_of");
  const allTokens = db.select(TOKEN).from(tokens).orderBy(asc(tokens.issuedAt), asc(tokens.jti)).prepare("gs_tokens_all");

  const getUser = async (id: string): Promise<UserRecord | null> => (await userById.execute({ id }))[0] ?? null;

  /** Inserts the user or fills a missing email, as user-store.ts's ensureUser. */
  const upsertUser = (q: Pick<PgDb, "insert">, id: string, email: string | undefined, now: number) =>
    q
      .insert(users)
      .values({ id, email: email ?? null, createdAt: now })
      .onConflictDoUpdate({
        target: users.id,
        set: { email: sql`excluded.email` },
        setWhere: sql`${users.email} IS NULL AND excluded.email IS NOT NULL`,
      });

  return {
    getUser,
    async ensureUser(id, email, now) {
      // A read first: it runs on every live request, and the write is rare.
      const known = await getUser(id);
      if (isSettled(known, email)) return known;
      const [row] = await upsertUser(db, id, email, now).returning(USER);
      return row ?? (await getUser(id))!;
    },
    async createUser(u) {
      const inserted = await db
        .insert(users)
        .values({ id: u.id, email: u.email ?? null, createdAt: u.now })
        .onConflictDoNothing()
        .returning({ id: users.id });
      return { created: inserted.length === 1, user: (await getUser(u.id))! };
    },
    async setDisabled(id, disabled) {
      return (await db.update(users).set({ disabled }).where(eq(users.id, id)).returning({ id: users.id })).length === 1;
    },
    async setLimits(id, limits) {
      if (limits !== null) checkLimits(limits);
      const set =
        limits === null
          ? { perMinute: null, perDay: null }
          : {
              perMinute: sql`coalesce(${limits.perMinute ?? null}::int, ${users.perMinute})`,
              perDay: sql`coalesce(${limits.perDay ?? null}::int, ${users.perDay})`,
            };
      return (await db.update(users).set(set).where(eq(users.id, id)).returning({ id: users.id })).length === 1;
    },
    async issueTokens(minted, { email, now }) {
      await db.transaction(async (tx) => {
        for (const t of minted) {
          await upsertUser(tx, t.userId, email, now);
          await tx.insert(tokens).values(t);
        }
      });
    },
    async issueTokenWithin(t, { email, now, since, max }) {
      return db.transaction(async (tx) => {
        // One user's generations queue on a transaction-scoped advisory lock: the count below is then
        // exact when the insert happens, on every instance sharing the database.
        await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`gs-tokens:${t.userId}`}, 0))`);
        const rows = await tx
          .select({ issuedAt: tokens.issuedAt })
          .from(tokens)
          .where(and(eq(tokens.userId, t.userId), sql`${tokens.issuedAt} >= ${since}`))
          .orderBy(asc(tokens.issuedAt));
        if (rows.length >= max) return { issued: false as const, recent: rows.map((r) => r.issuedAt) };
        await upsertUser(tx, t.userId, email, now);
        await tx.insert(tokens).values(t);
        return { issued: true as const };
      });
    },
    async listTokens(filter = {}): Promise<TokenRecord[]> {
      return filter.userId !== undefined ? tokensOf.execute({ userId: filter.userId }) : allTokens.execute();
    },
    async revokeToken(jti, now) {
      const updated = await db
        .update(tokens)
        .set({ revokedAt: now })
        .where(and(eq(tokens.jti, jti), isNull(tokens.revokedAt)))
        .returning({ jti: tokens.jti });
      if (updated.length === 1) return "revoked";
      const inserted = await db
        .insert(tokens)
        .values({ jti, userId: "", issuedAt: 0, expiresAt: 0, revokedAt: now })
        .onConflictDoNothing()
        .returning({ jti: tokens.jti });
      return inserted.length === 1 ? "revoked-unknown-jti" : "already-revoked";
    },
    isRevoked: async (jti) => (await revoked.execute({ jti })).length > 0,
    getSetting: async (key) => (await setting.execute({ key }))[0]?.value ?? null,
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
    async insertSettingIfAbsent(key, value) {
      return (await db.insert(settings).values({ key, value }).onConflictDoNothing().returning({ key: settings.key })).length === 1;
    },
  };
}
