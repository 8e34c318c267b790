/**
 * The dashboard's account reads (token generation rate, live tokens, a token's owner, daily usage):
 * statements only, the rules being account.ts's; db/sqlite/account-statements.ts and db/pg/account-statements.ts.
 * Cold paths: a few per page view.
 */

export interface TokenRow {
  jti: string;
  issuedAt: number;
  expiresAt: number;
}

export interface AccountStore {
  /** Issue times (epoch ms, oldest first) of the user's tokens issued at or after `since`. */
  issuedSince(userId: string, since: number): Promise<number[]>;
  /** The user's tokens not revoked and expiring after `now`, newest first. */
  liveTokens(userId: string, now: number): Promise<TokenRow[]>;
  /** Who a jti was minted for; null when it was never minted here. */
  tokenOwner(jti: string): Promise<string | null>;
  /** Admitted requests per UTC day (epoch ms of its midnight) from `firstDay` on. */
  usageDays(userId: string, firstDay: number): Promise<{ day: number; admitted: number }[]>;
}
