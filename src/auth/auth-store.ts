/**
 * Users, tokens and settings behind one interface, so the server, the dashboard and the CLI do not
 * know which database they talk to (README.md § PostgreSQL): auth-store-sqlite.ts over the embedded
 * file, auth-store-pg.ts over a shared PostgreSQL. Every call is async; on SQLite it answers at
 * once.
 */
import type { UserRecord } from "./user-store.ts";
import type { RevokeOutcome, TokenRecord } from "./token-store.ts";

export interface IssuedToken {
  jti: string;
  userId: string;
  /** Epoch ms. */
  issuedAt: number;
  expiresAt: number;
}

export interface AuthStore {
  getUser(id: string): Promise<UserRecord | null>;
  /** Returns the user, creating the record on first use; fills a missing email. Reads only when there is nothing to write. */
  /** `noWait`: fail at once when another connection holds the write lock (SQLite) instead of waiting busy_timeout. */
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
  revokeToken(jti: string, now: number): Promise<RevokeOutcome>;
  isRevoked(jti: string): Promise<boolean>;
  getSetting(key: string): Promise<string | null>;
  /** Writes only when the value changed (several instances starting together do not contend). */
  setSetting(key: string, value: string): Promise<void>;
  /** Inserts unless the key exists; true when this call inserted it (the first of racing starts wins). */
  insertSettingIfAbsent(key: string, value: string): Promise<boolean>;
}
