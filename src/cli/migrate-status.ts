/**
 * `migrate --status`: a dry run. Lists each migration this build embeds as applied (with when) or
 * pending, and any the database records that this build does not know (a newer release migrated
 * it); changes nothing, not even a missing SQLite file. Exit 0 when none is pending, 1 when some
 * are, so a deploy script can ask before it migrates.
 */
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { appliedMigrationsPg } from "../../db/pg/migrate.ts";
import { PG_MIGRATIONS } from "../../db/pg/migrations.ts";
import { createPgPool } from "../../db/pg/open.ts";
import { MIGRATIONS, type Migration, type MigrationRecord } from "../../db/sqlite/migrations.ts";
import { appliedMigrations } from "../../db/sqlite/open.ts";
import { redactDatabaseUrl } from "../config.ts";
import type { ParsedArgs } from "./args.ts";

export async function migrateStatus(args: ParsedArgs): Promise<number> {
  const { databaseUrl, db } = args.config;
  if (databaseUrl) {
    const where = redactDatabaseUrl(databaseUrl);
    const sql = createPgPool(databaseUrl, { poolSize: 1 });
    let records: MigrationRecord[];
    try {
      records = await appliedMigrationsPg(sql);
    } catch (err) {
      throw new Error(`could not read PostgreSQL at ${where}: ${(err as Error).message}`);
    } finally {
      await sql.close();
    }
    return report(where, PG_MIGRATIONS, records);
  }
  if (db !== ":memory:" && !existsSync(db)) {
    console.log(`no database at ${db}: all ${MIGRATIONS.length} migrations pending ('graph-stats migrate --db ${db}' creates it)`);
    return 1;
  }
  const sqlite = new Database(db, { readonly: true });
  try {
    return report(db, MIGRATIONS, appliedMigrations(sqlite));
  } finally {
    sqlite.close();
  }
}

/** Prints the summary line, then one line per migration; returns the exit code. */
function report(where: string, embedded: Migration[], records: MigrationRecord[]): number {
  const at = new Map(records.map((r) => [r.tag, r.appliedAt]));
  const known = new Set(embedded.map((m) => m.tag));
  const pending = embedded.filter((m) => !at.has(m.tag));
  const applied = embedded.length - pending.length;
  const schema = embedded.at(-1)!.tag;
  if (pending.length === 0)
    console.log(`database ${where} is up to date: ${applied} of ${embedded.length} migrations applied; schema ${schema}`);
  else
    console.log(
      `database ${where}: ${applied} of ${embedded.length} migrations applied, ${pending.length} pending ('graph-stats migrate' applies them)`,
    );
  for (const m of embedded) {
    const when = at.get(m.tag);
    console.log(when === undefined ? `pending  ${m.tag}` : `applied  ${m.tag}  ${new Date(when).toISOString()}`);
  }
  for (const r of records)
    if (!known.has(r.tag))
      console.log(`applied  ${r.tag}  ${new Date(r.appliedAt).toISOString()}  (not in this build: a newer release applied it)`);
  return pending.length === 0 ? 0 : 1;
}
