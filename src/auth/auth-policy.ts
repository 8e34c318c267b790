/**
 * The AuthStore's rules, written once for both databases: a user is read first and written only
 * when it is new or lacks a given email; limits are checked before any write; a token issue is
 * allowed while fewer than `max` were issued in the window, decided under the database's lock; a
 * revocation of a jti never minted here is recorded too. Each database supplies only its
 * statements (db/sqlite/auth-statements.ts, db/pg/auth-statements.ts).
 */
import type { AuthPort } from "./auth-port.ts";
import type { AuthStore, UserRecord } from "./auth-store.ts";
import { checkLimits } from "./user-limits.ts";

/** True when ensureUser has nothing to write: the user exists and has an email, or none was given. */
export const isSettled = (known: UserRecord | null, email: string | undefined): known is UserRecord =>
  known !== null && (known.email !== null || email === undefined);

// async methods: a throw (a locked SQLite) becomes a rejection, as on PostgreSQL; on SQLite the
// first statement runs before the call returns.
export function createAuthStore(port: AuthPort): AuthStore {
  const getUser = async (id: string) => port.user(id);
  return {
    getUser,
    async ensureUser(id, email, now, opts) {
      // A read first: it runs on every live request, and the write is rare.
      const known = await port.user(id);
      if (isSettled(known, email)) return known;
      await port.upsertUser(id, email ?? null, now, !opts?.noWait);
      return (await port.user(id))!;
    },
    async createUser(u) {
      const created = await port.insertUser(u.id, u.email ?? null, u.now);
      return { created, user: (await port.user(u.id))! };
    },
    setDisabled: async (id, disabled) => port.setDisabled(id, disabled),
    async setLimits(id, limits) {
      if (limits === null) return port.setLimits(id, "reset");
      checkLimits(limits);
      return port.setLimits(id, { perMinute: limits.perMinute ?? null, perDay: limits.perDay ?? null });
    },
    issueTokens: async (tokens, { email, now }) => port.issue(tokens, email ?? null, now),
    async issueTokenWithin(token, { email, now, since, max }) {
      const r = await port.issueWithin(token, email ?? null, now, since, (recent) => recent.length < max);
      return r.issued ? { issued: true } : { issued: false, recent: r.recent };
    },
    listTokens: async (filter = {}) => port.tokens(filter.userId),
    async revokeToken(jti, now) {
      if (await port.revoke(jti, now)) return "revoked";
      return (await port.revokeUnknown(jti, now)) ? "revoked-unknown-jti" : "already-revoked";
    },
    isRevoked: async (jti) => port.isRevoked(jti),
    async caller(id, jti) {
      if (jti === undefined) return { user: await port.user(id), revoked: false };
      // A user with no row yet (a first use) has nothing to read the revocation beside.
      return (await port.userWithRevocation(id, jti)) ?? { user: null, revoked: await port.isRevoked(jti) };
    },
    getSetting: async (key) => port.setting(key),
    setSetting: async (key, value) => port.setSetting(key, value),
    insertSettingIfAbsent: async (key, value) => port.insertSettingIfAbsent(key, value),
  };
}
