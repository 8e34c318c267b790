/**
 * The market store a one-shot command (`migrate`, `import`) works on: the SQLite file at --db
 * (created when missing, with the sample as README.md § CLI says), or with --database-url the shared
 * PostgreSQL, migrated first and given the sample when this open created its schema (fresh-sample.ts).
 */
import { openPg } from "../../db/pg/open.ts";
import { redactDatabaseUrl } from "../config.ts";
import { createLogger } from "../logger.ts";
import { prepareDatabase } from "../http/server.ts";
import type { LoadSampleResult } from "../market/load-sample.ts";
import { loadSampleIfFresh } from "../market/pg/fresh-sample.ts";
import { pgMarketStore } from "../market/pg/pg-store.ts";
import { sqliteMarketStore } from "../market/sqlite-store.ts";
import type { MarketStore } from "../market/store.ts";
import type { ParsedArgs } from "./args.ts";

export interface CommandMarket {
  store: MarketStore;
  /** The file, or the URL without its password. */
  where: string;
  /** SQLite: this open created the file; PostgreSQL: it applied migrations. */
  created: boolean;
  /** The sample this open loaded into a fresh PostgreSQL database (SQLite logs its own), or null. */
  sample: LoadSampleResult | null;
  close(): Promise<void>;
}

/** A long statement timeout: an import of a large file is one transaction per file. */
const COMMAND_STATEMENT_TIMEOUT_MS = 30_000;

export async function openCommandMarket(args: ParsedArgs): Promise<CommandMarket> {
  const { config } = args;
  if (!config.databaseUrl) {
    const opened = prepareDatabase(config, createLogger(config.logLevel, 2));
    return {
      store: sqliteMarketStore(opened.sqlite, opened.path),
      where: config.db,
      created: opened.created,
      sample: null,
      close: async () => opened.sqlite.close(),
    };
  }
  const where = redactDatabaseUrl(config.databaseUrl);
  let pg: Awaited<ReturnType<typeof openPg>>;
  try {
    pg = await openPg(config.databaseUrl, {
      poolSize: 2,
      statementTimeoutMs: Math.max(config.dbStatementTimeout, COMMAND_STATEMENT_TIMEOUT_MS),
    });
  } catch (err) {
    throw new Error(`could not open PostgreSQL at ${where}: ${(err as Error).message}`);
  }
  try {
    const store = pgMarketStore(pg.sql);
    const sample = await loadSampleIfFresh(pg.sql, store, { applied: pg.applied, sample: config.sample });
    return { store, where, created: pg.applied > 0, sample, close: () => pg.close() };
  } catch (err) {
    await pg.close();
    throw err;
  }
}
