/**
 * Brings a PostgreSQL database's schema up to date at start, as db/open.ts does for SQLite.
 * Each embedded migration runs in its own transaction (PostgreSQL's DDL is transactional) holding
 * a transaction-level advisory lock, so several instances starting together apply each exactly
 * once: the others wait on the lock, then find the migration recorded and skip it.
 * Migrations must not use CREATE INDEX CONCURRENTLY (it cannot run inside a transaction).
 */
import type { SQL } from "bun";
import { advisoryXactLock } from "./advisory-lock.ts";
import { PG_MIGRATIONS } from "./migrations.ts";
import type { Migration } from "../migrations.ts";

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
  let applied = 0;
  for (const m of migrations) {
    const did = await sql.begin(async (tx) => {
      // A migration (and waiting for another instance's) may outlast the pool's statement timeout.
      await tx`SET LOCAL statement_timeout = 0`;
      await advisoryXactLock(tx, LOCK_OBJECT);
      const done = await tx`SELECT 1 FROM __migrations WHERE tag = ${m.tag}`;
      if (done.length > 0) return false;
      for (const stmt of m.sql.split("--> statement-breakpoint")) {
        if (stmt.trim()) await tx.unsafe(stmt);
      }
      await tx`INSERT INTO __migrations (tag, applied_at) VALUES (${m.tag}, ${Date.now()})`;
      return true;
    });
    if (did) applied++;
  }
  return applied;
}
