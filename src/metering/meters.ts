/** The meter on each database: meter-policy.ts's rules over that database's statements (db/sqlite, db/pg). */
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { type PgMeterOptions, pgMeterPort } from "../../db/pg/meter-statements.ts";
import { type SqliteMeterOptions, sqliteMeterPort } from "../../db/sqlite/meter-statements.ts";
import type { Clock } from "../clock.ts";
import { newBootId } from "./boot.ts";
import type { Meter } from "./meter.ts";
import { createMeter } from "./meter-policy.ts";

/** Creates the meter over an open database (db/sqlite/open.ts sets busy_timeout and WAL); `bootId` marks this process's admitted rows (reconcile.ts). */
export function createSqliteMeter(sqlite: Database, clock: Clock, bootId: string = newBootId(), options: SqliteMeterOptions = {}): Meter {
  return createMeter(sqliteMeterPort(sqlite, clock, bootId, options), clock);
}

/** Creates the meter over a pool (db/pg/open.ts sets its size and timeouts); `bootId` marks this process's admitted rows (reconcile.ts). */
export function createPgMeter(sql: SQL, clock: Clock, bootId: string = newBootId(), options: PgMeterOptions = {}): Meter {
  return createMeter(pgMeterPort(sql, clock, bootId, options), clock);
}
