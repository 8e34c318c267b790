/**
 * The one place the stores are opened, for `serve` and every CLI command: the SQLite file at --db,
 * or with --database-url the shared PostgreSQL, migrated first (and given the sample when this open
 * created its schema). A server waits briefly for locks and uses the configured pool; a one-shot
 * command waits longer (an import is one transaction per file) on a small pool, and only serve,
 * migrate and import create a missing SQLite file, so a mistyped --db cannot silently create an
 * empty database with a new generated secret. Messages name the database without its password.
 */
import { existsSync } from "node:fs";
import type { OpenedDb } from "../../db/sqlite/open.ts";
import type { Clock } from "../clock.ts";
import { redactDatabaseUrl, type Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import type { LoadSampleResult } from "../market/sample-policy.ts";
import { pgStores } from "./pg-stores.ts";
import { prepareDatabase, SERVER_BUSY_TIMEOUT_MS } from "./prepare-database.ts";
import { sqliteHealth, sqliteStores } from "./sqlite-stores.ts";
import type { Stores } from "./stores.ts";

export interface OpenStoresOptions {
  clock: Clock;
  bootId: string;
  logger: Logger;
  /** A server (short lock waits, the configured pool) or a one-shot command. */
  purpose: "serve" | "command";
  /** Whether a missing SQLite file may be created (serve, migrate, import). */
  mayCreate: boolean;
}

export interface OpenedStores {
  stores: Stores;
  /** The SQLite file, or null on PostgreSQL (where nothing is kept in SQLite). */
  opened: OpenedDb | null;
  /** Where the data lives, for messages: the file, or the URL without its password. */
  where: string;
  /** SQLite: this open created the file; PostgreSQL: it applied migrations. */
  created: boolean;
  /** Migrations this open applied. */
  applied: number;
  /** The sample this open loaded into a fresh database, or null. */
  sample: LoadSampleResult | null;
  /** Closes what this open opened. */
  close(): Promise<void>;
}

/** A command's statements may run long: an import of a large file is one transaction per file. */
const COMMAND_STATEMENT_TIMEOUT_MS = 30_000;

export async function openStores(config: Config, o: OpenStoresOptions): Promise<OpenedStores> {
  if (config.databaseUrl) {
    const where = redactDatabaseUrl(config.databaseUrl);
    const pool =
      o.purpose === "serve"
        ? { size: config.dbPool, statementTimeoutMs: config.dbStatementTimeout }
        : { size: 2, statementTimeoutMs: Math.max(config.dbStatementTimeout, COMMAND_STATEMENT_TIMEOUT_MS) };
    let pg: Awaited<ReturnType<typeof pgStores>>;
    try {
      pg = await pgStores({ ...config, databaseUrl: config.databaseUrl }, o.clock, o.bootId, o.logger, pool);
    } catch (err) {
      throw new Error(`could not open PostgreSQL at ${where}: ${(err as Error).message}`);
    }
    return {
      stores: pg.stores,
      opened: null,
      where,
      created: pg.applied > 0,
      applied: pg.applied,
      sample: pg.sample,
      close: () => pg.stores.close(),
    };
  }
  if (!o.mayCreate && config.db !== ":memory:" && !existsSync(config.db)) {
    throw new Error(
      `no database at ${config.db}; create one with 'graph-stats migrate --db ${config.db}' (or serve/import), or pass the right --db`,
    );
  }
  const { opened, sample } = prepareDatabase(config, o.logger, o.purpose === "serve" ? SERVER_BUSY_TIMEOUT_MS : undefined);
  // The meter waits for another process's write lock as long as PostgreSQL's statements may run (--db-statement-timeout).
  const stores = sqliteStores(opened, o.clock, o.bootId, sqliteHealth(config.db, opened), config.dbStatementTimeout);
  return {
    stores,
    opened,
    where: config.db,
    created: opened.created,
    applied: opened.applied ?? 0,
    sample,
    close: async () => {
      await stores.close();
      opened.sqlite.close();
    },
  };
}
