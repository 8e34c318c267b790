/**
 * The AuthStore on SQLite: the synchronous statements of user-store.ts and token-store.ts (the
 * embedded default keeps its speed), answered as settled promises.
 */
import type { Database } from "bun:sqlite";
import type { AuthStore } from "./auth-store.ts";
import { createUser, ensureUser, getUser, setDisabled, setLimits } from "./user-store.ts";
import { isRevoked, listTokens, recordToken, revokeToken } from "./token-store.ts";

export function createSqliteAuthStore(sqlite: Database): AuthStore {
  const read = sqlite.prepare<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?");
  const upsert = sqlite.prepare<unknown, [string, string]>(
    "INSERT INTO settings (key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value",
  );
  const insertIfAbsent = sqlite.prepare<unknown, [string, string]>("INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)");
  const issue = sqlite.transaction((tokens: Parameters<AuthStore["issueTokens"]>[0], email: string | undefined, now: number) => {
    for (const t of tokens) {
      ensureUser(sqlite, t.userId, email, now);
      recordToken(sqlite, t);
    }
  });
  // async functions: a throw (a locked database) becomes a rejection, as on PostgreSQL.
  return {
    getUser: async (id) => getUser(sqlite, id),
    ensureUser: async (id, email, now) => ensureUser(sqlite, id, email, now),
    createUser: async (u) => createUser(sqlite, u),
    setDisabled: async (id, disabled) => setDisabled(sqlite, id, disabled),
    setLimits: async (id, limits) => setLimits(sqlite, id, limits),
    issueTokens: async (tokens, { email, now }) => issue.immediate(tokens, email, now),
    listTokens: async (filter) => listTokens(sqlite, filter),
    revokeToken: async (jti, now) => revokeToken(sqlite, jti, now),
    isRevoked: async (jti) => isRevoked(sqlite, jti),
    getSetting: async (key) => read.get(key)?.value ?? null,
    setSetting: async (key, value) => void upsert.run(key, value),
    insertSettingIfAbsent: async (key, value) => insertIfAbsent.run(key, value).changes === 1,
  };
}
