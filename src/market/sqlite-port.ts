/**
 * The SQLite market port of a connection, made once per connection: the synchronous entry points
 * (the CLI's import, the sample at start-up, tests) run the market's rules over it directly.
 */
import type { Database } from "bun:sqlite";
import { sqliteMarketPort } from "../../db/sqlite/market-statements.ts";
import { rawDb, type DbHandle } from "./db-handle.ts";
import type { MarketPort } from "./market-port.ts";

const ports = new WeakMap<Database, MarketPort>();

/** The port over `h`'s connection (no thread path: a caller that has a file names it to marketStore). */
export function portOf(h: DbHandle): MarketPort {
  const db = rawDb(h);
  let port = ports.get(db);
  if (!port) ports.set(db, (port = sqliteMarketPort(db, "")));
  return port;
}
