/**
 * The stores a one-shot command (`token`, `user`, `migrate`) works on: the SQLite file at --db, or
 * with --database-url (GRAPH_STATS_DATABASE_URL) the shared PostgreSQL, migrated first as `serve`
 * would. Messages name the database without its password.
 */
import { existsSync } from "node:fs";
import { createSqliteAuthStore, createPgAuthStore, type AuthStore } from "../auth/index.ts";
import { openPg } from "../../db/pg/open.ts";
import { redactDatabaseUrl } from "../config.ts";
import { createLogger } from "../logger.ts";
import { prepareDatabase } from "../http/server.ts";
import { createSqliteUsageReport, type UsageReport } from "../metering/usage-report.ts";
import { createPgUsageReport } from "../metering/usage-report-pg.ts";
import type { ParsedArgs } from "./args.ts";

export interface CommandStores {
  auth: AuthStore;
  usage: UsageReport;
  /** Where the data lives, for messages: the file, or the URL without its password. */
  where: string;
  /** Migrations this open applied (PostgreSQL), or whether it created the file (SQLite). */
  created: boolean;
  close(): Promise<void>;
}

/**
 * Opens the configured database. Only serve, migrate and import create a missing SQLite file
 * (README.md § CLI); the others refuse, so a mistyped --db cannot silently create an empty database
 * with a new generated secret. A PostgreSQL database exists already: its schema is brought up to date.
 */
export async function openCommandStores(args: ParsedArgs, mayCreate = false): Promise<CommandStores> {
  const { config } = args;
  if (config.databaseUrl) {
    const where = redactDatabaseUrl(config.databaseUrl);
    let pg: Awaited<ReturnType<typeof openPg>>;
    try {
      pg = await openPg(config.databaseUrl, { poolSize: 2, statementTimeoutMs: Math.max(config.dbStatementTimeout, 30_000) });
    } catch (err) {
      throw new Error(`could not open PostgreSQL at ${where}: ${(err as Error).message}`);
    }
    return { auth: createPgAuthStore(pg.db), usage: createPgUsageReport(pg.sql), where, created: pg.applied > 0, close: () => pg.close() };
  }
  const opened = openForCommand(args, mayCreate);
  return {
    auth: createSqliteAuthStore(opened.sqlite),
    usage: createSqliteUsageReport(opened.sqlite),
    where: config.db,
    created: opened.created,
    close: async () => opened.sqlite.close(),
  };
}

/** Opens the SQLite file at --db for a one-shot command, refusing a missing one unless mayCreate. */
export function openForCommand(args: ParsedArgs, mayCreate = false) {
  const path = args.config.db;
  if (!mayCreate && path !== ":memory:" && !existsSync(path)) {
    throw new Error(`no database at ${path}; create one with 'graph-stats migrate --db ${path}' (or serve/import), or pass the right --db`);
  }
  return prepareDatabase(args.config, createLogger(args.config.logLevel, 2));
}
