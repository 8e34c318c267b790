/**
 * Opening PostgreSQL (README.md § PostgreSQL): one connection pool per process, then the embedded
 * migrations (db/pg/migrate.ts, under an advisory lock, so instances starting together apply
 * them once).
 *
 * Driver: Bun's built-in client (`Bun.sql`, drizzle-orm/bun-sql), chosen by measurement
 * (bench/pg-driver.bench.ts, 3000 metering transactions per driver, interleaved, loopback): median
 * 0.61 / 0.69 ms (two runs) against 0.65 / 0.76 ms with `postgres` (porsager) and 0.60 / 0.69 ms
 * with `pg` — the same within this machine's noise, all under the 1 ms target. So the one that adds
 * no dependency, is native code and ships inside the compiled binary for free wins; its pool also
 * reconnects by itself after PostgreSQL restarts (src/metering/meter-contract.test.ts, "PostgreSQL stopped").
 */
import { SQL } from "bun";
import { drizzle, type BunSQLDatabase } from "drizzle-orm/bun-sql";
import * as schema from "./schema.ts";
import { migratePg } from "./migrate.ts";

export type PgDb = BunSQLDatabase<typeof schema>;

export interface PgOptions {
  /** Connections in this process's pool (default 10). */
  poolSize?: number;
  /**
   * Longest a statement may run, lock waits included (default 2000 ms): past it PostgreSQL
   * cancels it and the request becomes a 503 rather than a request that hangs.
   */
  statementTimeoutMs?: number;
  /**
   * A transaction left idle this long is ended by the server (default 10 000 ms), so an instance
   * that froze mid-transaction cannot hold a user's meter lock for ever.
   */
  idleInTransactionTimeoutMs?: number;
  /** Seconds to wait for a new connection (default 5). */
  connectTimeoutS?: number;
}

export interface OpenedPg {
  sql: SQL;
  db: PgDb;
  /** How many migrations this call applied. */
  applied: number;
  close(): Promise<void>;
}

/** A pool with the timeouts set on every connection it opens (no migrations). */
export function createPgPool(url: string, options: PgOptions = {}): SQL {
  return new SQL(url, {
    max: options.poolSize ?? 10,
    connectionTimeout: options.connectTimeoutS ?? 5,
    connection: {
      statement_timeout: Math.max(0, Math.floor(options.statementTimeoutMs ?? 2000)),
      idle_in_transaction_session_timeout: Math.max(0, Math.floor(options.idleInTransactionTimeoutMs ?? 10_000)),
      application_name: "graph-stats",
    },
  });
}

/** Connects to `url`, brings the schema up to date and returns the pool and a drizzle over it. */
export async function openPg(url: string, options: PgOptions = {}): Promise<OpenedPg> {
  const sql = createPgPool(url, options);
  try {
    const applied = await migratePg(sql);
    return { sql, db: drizzle({ client: sql, schema }), applied, close: () => sql.close() };
  } catch (err) {
    await sql.close();
    throw err;
  }
}
