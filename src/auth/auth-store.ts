/**
 * Users, tokens and settings behind one interface, so the server, the dashboard and the CLI do not
 * know which database they talk to (README.md § PostgreSQL). Its rules are written once
 * (auth-policy.ts); each database supplies only its statements (db/sqlite/auth-statements.ts,
 * db/pg/auth-statements.ts). Every call is async; on SQLite its statements have run when it returns.
 */

export interface UserRecord {
  id: string;
  email: string | null;
  disabled: boolean;
  perMinute: number | null;
  perDay: number | null;
  /** Epoch ms. */
  createdAt: number;
  /** The plan's name; null is `free`, the default plan. */
  plan: string | null;
  /** The plan's limits where it has a row (a plan without one — `free` until redefined — is the configured defaults). */
  planPerMinute: number | null;
  planPerDay: number | null;
  /** May use the console and the admin API. */
  admin: boolean;
}

export interface TokenRecord {
  jti: string;
  /** "" for a jti revoked here but minted elsewhere. */
  userId: string;
  issuedAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

export type RevokeOutcome = "revoked" | "already-revoked" | "revoked-unknown-jti";

export interface IssuedToken {
  jti: string;
  userId: string;
  /** Epoch ms (mintToken gives seconds: pass `iat * 1000`, `exp * 1000`). */
  issuedAt: number;
  expiresAt: number;
}

export interface AuthStore {
  getUser(id: string): Promise<UserRecord | null>;
  /**
   * Returns the user, creating the record on first use; fills a missing email. Reads only when there
   * is nothing to write. `noWait`: fail at once when another connection holds the write lock
   * (SQLite) instead of waiting busy_timeout.
   */
  ensureUser(id: string, email: string | undefined, now: number, opts?: { noWait?: boolean }): Promise<UserRecord>;
  /** `created` is false (and nothing changes) when the id already exists. */
  createUser(u: { id: string; email?: string; now: number }): Promise<{ created: boolean; user: UserRecord }>;
  /** False when the user does not exist. */
  setDisabled(id: string, disabled: boolean): Promise<boolean>;
  /** Omitted fields keep their value, null resets both; throws on a non-positive limit; false when unknown. */
  setLimits(id: string, limits: { perMinute?: number; perDay?: number } | null): Promise<boolean>;
  /** Records freshly minted tokens, creating their users first (with `email` when given), in one transaction. */
  issueTokens(tokens: IssuedToken[], opts: { email?: string; now: number }): Promise<void>;
  /**
   * Records one token unless its user already has `max` issued at or after `since`: the count and
   * the insert are one transaction under the user's write lock, so concurrent calls (several
   * processes included) never exceed `max`. Refused: the issue times of those tokens, oldest first.
   */
  issueTokenWithin(
    token: IssuedToken,
    opts: { email?: string; now: number; since: number; max: number },
  ): Promise<{ issued: true } | { issued: false; recent: number[] }>;
  /** Tokens, oldest first, optionally of one user. */
  listTokens(filter?: { userId?: string }): Promise<TokenRecord[]>;
  /**
   * Revokes `jti` at `now`. A jti not minted here is still recorded as revoked (user "", times 0),
   * so a token minted elsewhere with the same secret can be shut off too.
   */
  revokeToken(jti: string, now: number): Promise<RevokeOutcome>;
  isRevoked(jti: string): Promise<boolean>;
  /** A live request's caller: its user (null before its first row) and whether its token's `jti` is revoked. */
  caller(id: string, jti: string | undefined): Promise<{ user: UserRecord | null; revoked: boolean }>;
  getSetting(key: string): Promise<string | null>;
  /** Writes only when the value changed (several instances starting together do not contend). */
  setSetting(key: string, value: string): Promise<void>;
  /** Inserts unless the key exists; true when this call inserted it (the first of racing starts wins). */
  insertSettingIfAbsent(key: string, value: string): Promise<boolean>;
}
