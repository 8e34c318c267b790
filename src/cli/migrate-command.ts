/**
 * `migrate [--db PATH | --database-url URL] [--no-sample] [--status]`: creates or updates the schema
 * and says which: how many migrations it applied, or that the database was already up to date, and
 * the schema version it is at (the last migration's tag). A new database (a new SQLite file, or a
 * PostgreSQL database whose schema this run created) gets the synthetic sample unless --no-sample.
 * `--status` changes nothing and says what is pending (migrate-status.ts).
 */
import { PG_MIGRATIONS } from "../../db/pg/migrations.ts";
import { MIGRATIONS } from "../../db/sqlite/migrations.ts";
import { LEVELS, type LevelName } from "../logger.ts";
import type { ParsedArgs } from "./args.ts";
import { openCommandStores } from "./command-stores.ts";
import { migrateStatus } from "./migrate-status.ts";

export async function migrateCommand(args: ParsedArgs): Promise<number> {
  if (args.flags.status) return migrateStatus(args);
  // The opening's info lines (migrations applied, sample loaded) say again what the answer says;
  // on a terminal they came between its lines. Warnings still reach stderr, and --log-level debug shows all.
  const level = args.config.logLevel as LevelName;
  const market = await openCommandStores(args, true, LEVELS[level] === LEVELS.info ? "warn" : level);
  await market.close();
  const schema = (args.config.databaseUrl ? PG_MIGRATIONS : MIGRATIONS).at(-1)!.tag;
  const n = market.applied;
  if (n === 0) console.log(`database ${market.where} was already up to date (schema ${schema})`);
  else
    console.log(
      `database ${market.where}: ${market.created && !args.config.databaseUrl ? "created, " : ""}applied ${n} migration${n === 1 ? "" : "s"}; schema ${schema}`,
    );
  if (market.sample) console.log(`loaded the synthetic sample: universe ${market.sample.universe}, ${market.sample.symbols} symbols`);
  return 0;
}
