/** Table `tokens`: tokens minted here (for `token list`) and revocations by jti. Times are epoch ms. */
import type { Database } from "bun:sqlite";

export interface TokenRecord {
  jti: string;
  /** "" for a jti revoked here but minted elsewhere. */
  userId: string;
  issuedAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

const COLUMNS = "jti, user_id AS userId, issued_at AS issuedAt, expires_at AS expiresAt, revoked_at AS revokedAt";

/** Records a freshly minted token (mintToken gives seconds: pass `iat * 1000`, `exp * 1000`). */
export function recordToken(
  sqlite: Database,
  t: { jti: string; userId: string; issuedAt: number; expiresAt: number },
): void {
  sqlite
    .query("INSERT INTO tokens (jti, user_id, issued_at, expires_at) VALUES (?, ?, ?, ?)")
    .run(t.jti, t.userId, t.issuedAt, t.expiresAt);
}

/** Tokens, oldest first, optionally of one user. */
export function listTokens(sqlite: Database, filter: { userId?: string } = {}): TokenRecord[] {
  if (filter.userId !== undefined) {
    return sqlite
      .query(`SELECT ${COLUMNS} FROM tokens WHERE user_id = ? ORDER BY issued_at, jti`)
      .all(filter.userId) as TokenRecord[];
  }
  return sqlite.query(`SELECT ${COLUMNS} FROM tokens ORDER BY issued_at, jti`).all() as TokenRecord[];
}

export type RevokeOutcome = "revoked" | "already-revoked" | "revoked-unknown-jti";

/**
 * Revokes `jti` at `now`. A jti not minted here is still recorded as revoked (user "", times 0),
 * so a token minted elsewhere with the same secret can be shut off too.
 */
export function revokeToken(sqlite: Database, jti: string, now: number): RevokeOutcome {
  const updated = sqlite.query("UPDATE tokens SET revoked_at = ? WHERE jti = ? AND revoked_at IS NULL").run(now, jti);
  if (updated.changes === 1) return "revoked";
  const inserted = sqlite
    .query("INSERT OR IGNORE INTO tokens (jti, user_id, issued_at, expires_at, revoked_at) VALUES (?, '', 0, 0, ?)")
    .run(jti, now);
  return inserted.changes === 1 ? "revoked-unknown-jti" : "already-revoked";
}

/** True when `jti` has been revoked. */
export function isRevoked(sqlite: Database, jti: string): boolean {
  return sqlite.query("SELECT 1 AS x FROM tokens WHERE jti = ? AND revoked_at IS NOT NULL").get(jti) !== null;
}
