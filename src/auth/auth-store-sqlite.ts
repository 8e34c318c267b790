/**
 * The AuthStore on SQLite: the synchronous drizzle statements of user-store.ts and token-store.ts
 * (prepared once per connection), answered as settled promises.
 */
import type { Database } from "bun:sqlite";
import { eq, sql } from "drizzle-orm";
import { drizzleOf } from "../../db/open.ts";
import { settings } from "../../db/schema.ts";
import type { AuthStore } from "./auth-store.ts";
import { createUser, ensureUser, getUser, setDisabled, setLimits } from "./user-store.ts";
import { isRevoked, listTokens, recordToken, revokeToken } from "./token-store.ts";

const p = sql.placeholder;

export function createSqliteAuthStore(sqlite: Database): AuthStore {
  const db = drizzleOf(sqlite);
  const read = db
    .select({ value: settings.value })
    .from(settings)
    .where(eq(settings.key, p("key")))
    .prepare();
  const upsert = db
    .insert(settings)
    .values({ key: p("key"), value: p("value") })
    .onConflictDoUpdate({
      target: settings.key,
      set: { value: sql`excluded.value` },
      setWhere: sql`${settings.value} IS NOT excluded.value`,
    })
    .prepare();
  const insertIfAbsent = db
    .insert(settings)
    .values({ key: p("key"), value: p("value") })
    .onConflictDoNothing()
    .returning({ key: settings.key })
    .prepare();
  const issue = sqlite.transaction((tokens: Parameters<AuthStore["issueTokens"]>[0], email: string | undefined, now: number) => {
    for (const t of tokens) {
      ensureUser(sqlite, t.userId, email, now);
      recordToken(sqlite, t);
    }
  });
  const issuedSince = sqlite.query<{ issued_at: number }, [string, number]>(
    "SELECT issued_at FROM tokens WHERE user_id = ? AND issued_at >= ? ORDER BY issued_at",
  );
  // BEGIN IMMEDIATE: the count is read under the write lock, so no other connection inserts between.
  const issueWithin = sqlite.transaction(
    (t: Parameters<AuthStore["issueTokenWithin"]>[0], o: Parameters<AuthStore["issueTokenWithin"]>[1]) => {
      const recent = issuedSince.all(t.userId, o.since).map((r) => r.issued_at);
      if (recent.length >= o.max) return { issued: false as const, recent };
      ensureUser(sqlite, t.userId, o.email, o.now);
      recordToken(sqlite, t);
      return { issued: true as const };
    },
  );
  // async functions: a throw (a locked database) becomes a rejection, as on PostgreSQL.
  return {
    getUser: async (id) => getUser(sqlite, id),
    ensureUser: async (id, email, now, opts) =>
      opts?.noWait ? withoutWaiting(sqlite, () => ensureUser(sqlite, id, email, now)) : ensureUser(sqlite, id, email, now),
    createUser: async (u) => createUser(sqlite, u),
    setDisabled: async (id, disabled) => setDisabled(sqlite, id, disabled),
    setLimits: async (id, limits) => setLimits(sqlite, id, limits),
    issueTokens: async (tokens, { email, now }) => issue.immediate(tokens, email, now),
    issueTokenWithin: async (token, opts) => issueWithin.immediate(token, opts),
    listTokens: async (filter) => listTokens(sqlite, filter),
    revokeToken: async (jti, now) => revokeToken(sqlite, jti, now),
    isRevoked: async (jti) => isRevoked(sqlite, jti),
    getSetting: async (key) => read.get({ key })?.value ?? null,
    setSetting: async (key, value) => void upsert.run({ key, value }),
    insertSettingIfAbsent: async (key, value) => insertIfAbsent.all({ key, value }).length === 1,
  };
}

/** Runs fn with busy_timeout 0: a locked database throws SQLITE_BUSY at once rather than blocking the event loop. */
function withoutWaiting<T>(sqlite: Database, fn: () => T): T {
  const previous = (sqlite.query("PRAGMA busy_timeout").get() as { timeout: number }).timeout;
  sqlite.exec("PRAGMA busy_timeout = 0");
  try {
    return fn();
  } finally {
    sqlite.exec(`PRAGMA busy_timeout = ${previous}`);
  }
}
