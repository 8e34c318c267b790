/**
 * Table `tokens` on SQLite: tokens minted here (for `token list`) and revocations by jti, through
 * drizzle's typed queries on db/schema.ts, prepared once per connection. Times are epoch ms.
 */
import type { Database } from "bun:sqlite";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { perConnection, perRawConnection } from "../../db/open.ts";
import { tokens } from "../../db/schema.ts";

export interface TokenRecord {
  jti: string;
  /** "" for a jti revoked here but minted elsewhere. */
  userId: string;
  issuedAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

const p = sql.placeholder;
const TOKEN = {
  jti: tokens.jti,
  userId: tokens.userId,
  issuedAt: tokens.issuedAt,
  expiresAt: tokens.expiresAt,
  revokedAt: tokens.revokedAt,
};

/** Written rows are returned and counted: bun-sqlite's run result is untyped in drizzle. */
const JTI = { jti: tokens.jti };

const statements = perConnection((db) => ({
  record: db
    .insert(tokens)
    .values({ jti: p("jti"), userId: p("userId"), issuedAt: p("issuedAt"), expiresAt: p("expiresAt") })
    .prepare(),
  all: db.select(TOKEN).from(tokens).orderBy(asc(tokens.issuedAt), asc(tokens.jti)).prepare(),
  of: db
    .select(TOKEN)
    .from(tokens)
    .where(eq(tokens.userId, p("userId")))
    .orderBy(asc(tokens.issuedAt), asc(tokens.jti))
    .prepare(),
  revoke: db
    .update(tokens)
    .set({ revokedAt: sql`${p("now")}` })
    .where(and(eq(tokens.jti, p("jti")), isNull(tokens.revokedAt)))
    .returning(JTI)
    .prepare(),
  revokeElsewhere: db
    .insert(tokens)
    .values({ jti: p("jti"), userId: "", issuedAt: 0, expiresAt: 0, revokedAt: p("now") })
    .onConflictDoNothing()
    .returning(JTI)
    .prepare(),
}));

/** Records a freshly minted token (mintToken gives seconds: pass `iat * 1000`, `exp * 1000`). */
export function recordToken(sqlite: Database, t: { jti: string; userId: string; issuedAt: number; expiresAt: number }): void {
  statements(sqlite).record.run(t);
}

/** Tokens, oldest first, optionally of one user. */
export function listTokens(sqlite: Database, filter: { userId?: string } = {}): TokenRecord[] {
  const st = statements(sqlite);
  return filter.userId !== undefined ? st.of.all({ userId: filter.userId }) : st.all.all();
}

export type RevokeOutcome = "revoked" | "already-revoked" | "revoked-unknown-jti";

/**
 * Revokes `jti` at `now`. A jti not minted here is still recorded as revoked (user "", times 0),
 * so a token minted elsewhere with the same secret can be shut off too.
 */
export function revokeToken(sqlite: Database, jti: string, now: number): RevokeOutcome {
  const st = statements(sqlite);
  if (st.revoke.all({ jti, now }).length === 1) return "revoked";
  return st.revokeElsewhere.all({ jti, now }).length === 1 ? "revoked-unknown-jti" : "already-revoked";
}

/** On every live request: raw (db/open.ts perRawConnection says why). */
const revokedRaw = perRawConnection((sqlite) =>
  sqlite.prepare<{ one: number }, [string]>("SELECT 1 AS one FROM tokens WHERE jti = ? AND revoked_at IS NOT NULL"),
);

/** True when `jti` has been revoked. */
export function isRevoked(sqlite: Database, jti: string): boolean {
  return revokedRaw(sqlite).get(jti) !== null;
}
