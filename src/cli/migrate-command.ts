/**
 * `migrate [--db PATH | --database-url URL] [--no-sample]`: creates or updates the schema; a new
 * database (a new SQLite file, or a PostgreSQL database whose schema this run created) gets the
 * synthetic sample unless --no-sample.
 */
import type { ParsedArgs } from "./args.ts";
import { openCommandStores } from "./command-stores.ts";

export async function migrateCommand(args: ParsedArgs): Promise<number> {
  const market = await openCommandStores(args, true);
  await market.close();
  const what = args.config.databaseUrl ? "migrations applied" : "created";
  console.log(`database ${market.where} is up to date${market.created ? ` (${what})` : ""}`);
  if (market.sample) console.log(`loaded the synthetic sample: universe ${market.sample.universe}, ${market.sample.symbols} symbols`);
  return 0;
}
