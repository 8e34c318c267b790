/**
 * What each database implements for the AuthStore: its statements, none of the rules (auth-policy.ts).
 * SQLite answers synchronously, PostgreSQL with promises. A write returns whether it touched a row.
 */
import type { Maybe } from "../metering/meter-port.ts";
import type { IssuedToken, TokenRecord, UserRecord } from "./auth-store.ts";

export interface AuthPort {
  user(id: string): Maybe<UserRecord | null>;
  /** Inserts the user, or fills its email when it has none. `wait: false`: fail at once on another process's lock (SQLite). */
  upsertUser(id: string, email: string | null, now: number, wait: boolean): Maybe<void>;
  /** Inserts the user unless the id exists. */
  insertUser(id: string, email: string | null, now: number): Maybe<boolean>;
  setDisabled(id: string, disabled: boolean): Maybe<boolean>;
  /** Sets the limits; null keeps a field's value (`reset`: both become null). */
  setLimits(id: string, limits: { perMinute: number | null; perDay: number | null } | "reset"): Maybe<boolean>;
  /** In one transaction: each token's user upserted (as upsertUser), then the token inserted. */
  issue(tokens: IssuedToken[], email: string | null, now: number): Maybe<void>;
  /**
   * In one transaction holding the user's lock for token issues: reads the issue times (oldest
   * first) of the user's tokens issued at or after `since` and, when `allow` accepts them, records
   * the token as issue() does.
   */
  issueWithin(
    token: IssuedToken,
    email: string | null,
    now: number,
    since: number,
    allow: (recent: number[]) => boolean,
  ): Maybe<{ issued: boolean; recent: number[] }>;
  /** Oldest first (then by jti). */
  tokens(userId: string | undefined): Maybe<TokenRecord[]>;
  /** Sets revoked_at on a minted token not yet revoked. */
  revoke(jti: string, now: number): Maybe<boolean>;
  /** Inserts a revoked row for a jti not minted here (user "", times 0) unless the jti exists. */
  revokeUnknown(jti: string, now: number): Maybe<boolean>;
  isRevoked(jti: string): Maybe<boolean>;
  /**
   * The user and whether `jti` is revoked, in one statement: the two reads of every live request
   * (one statement instead of two: ~5 µs of a cached live answer's ~380). Null when the user has no row.
   */
  userWithRevocation(id: string, jti: string): Maybe<{ user: UserRecord; revoked: boolean } | null>;
  setting(key: string): Maybe<string | null>;
  /** Upserts, writing only when the value differs. */
  setSetting(key: string, value: string): Maybe<void>;
  insertSettingIfAbsent(key: string, value: string): Maybe<boolean>;
}
