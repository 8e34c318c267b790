/**
 * Brings a PostgreSQL database's schema up to date at start, as db/sqlite/open.ts does for SQLite.
 * Every pending migration runs in one transaction (PostgreSQL's DDL is transactional) holding a
 * transaction-level advisory lock, so of several instances starting together exactly one applies
 * them all and the others, once the lock is theirs, find them recorded. One lock per migration let
 * instances take turns, and then none had created the schema (src/stores/fresh-pg-sample.ts: no sample).
 * Migrations must not use CREATE INDEX CONCURRENTLY (it cannot run inside a transaction).
 */
import type { SQL } from "bun";
import { advisoryXactLock } from "./advisory-lock.ts";
import { PG_MIGRATIONS } from "./migrations.ts";
import type { Migration, MigrationRecord } from "../sqlite/migrations.ts";

/** 'migr' in ASCII (advisory-lock.ts). */
const LOCK_OBJECT = 0x6d696772;

/** Applies every migration not yet recorded, in order; returns how many this call applied. */
export async function migratePg(sql: SQL, migrations: Migration[] = PG_MIGRATIONS): Promise<number> {
  await sql`CREATE TABLE IF NOT EXISTS __migrations (tag text PRIMARY KEY, applied_at bigint NOT NULL)`.catch(
    // Two instances creating it at the same moment: one wins, the other sees a duplicate type.
    async (err: unknown) => {
      const [{ exists }] = await sql`SELECT to_regclass('__migrations') IS NOT NULL AS exists`;
      if (!exists) throw err;
    },
  );
  return sql.begin(async (tx) => {
    // Migrations (and waiting for another instance's) may outlast the pool's statement timeout.
    await tx`SET LOCAL statement_timeout = 0`;
    await advisoryXactLock(tx, LOCK_OBJECT);
    const done = new Set((await tx`SELECT tag FROM __migrations`).map((r: { tag: string }) => r.tag));
    let applied = 0;
    for (const m of migrations) {
      if (done.has(m.tag)) continue;
      for (const stmt of m.sql.split("--> statement-breakpoint")) {
        if (stmt.trim()) await tx.unsafe(stmt);
      }
      await tx`INSERT INTO __migrations (tag, applied_at) VALUES (${m.tag}, ${Date.now()})`;
      applied++;
    }
    return applied;
  });
}

/** The migrations recorded in this database, oldest first; none when it has no record table (`migrate --status`). */
export async function appliedMigrationsPg(sql: SQL): Promise<MigrationRecord[]> {
  const [{ exists }] = await sql`SELECT to_regclass('__migrations') IS NOT NULL AS exists`;
  if (!exists) return [];
  const rows: { tag: string; applied_at: string | number }[] = await sql`SELECT tag, applied_at FROM __migrations ORDER BY tag`;
  return rows.map((r) => ({ tag: r.tag, appliedAt: Number(r.applied_at) }));
}
