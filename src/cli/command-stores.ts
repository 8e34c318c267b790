/**
 * The stores a one-shot command (`token`, `user`, `usage`, `secret`, `migrate`, `import`) works on,
 * opened where serve opens them (src/stores/open-stores.ts) with a command's timeouts: the SQLite
 * file at --db, or with --database-url (GRAPH_STATS_DATABASE_URL) the shared PostgreSQL.
 */
import type { AdminStore } from "../admin/admin-store.ts";
import type { AuthStore } from "../auth/index.ts";
import type { AccountStore } from "../dashboard/account-store.ts";
import { systemClock } from "../clock.ts";
import { createLogger } from "../logger.ts";
import type { LoadSampleResult } from "../market/sample-policy.ts";
import type { MarketStore } from "../market/store.ts";
import { newBootId } from "../metering/index.ts";
import type { UsageExport } from "../metering/usage-export.ts";
import type { UsageReport } from "../metering/usage-report.ts";
import { openStores } from "../stores/open-stores.ts";
import type { ParsedArgs } from "./args.ts";

export interface CommandStores {
  auth: AuthStore;
  admin: AdminStore;
  account: AccountStore;
  usage: UsageReport;
  usageExport: UsageExport;
  market: MarketStore;
  /** Where the data lives, for messages: the file, or the URL without its password. */
  where: string;
  /** SQLite: this open created the file; PostgreSQL: it applied migrations. */
  created: boolean;
  /** Migrations this open applied. */
  applied: number;
  /** The sample this open loaded into a fresh database, or null. */
  sample: LoadSampleResult | null;
  close(): Promise<void>;
}

/**
 * Opens the configured database; only serve, migrate and import pass mayCreate (README.md § CLI).
 * Its log lines go to stderr, at `logLevel` (the configured one unless the command asks for another).
 */
export async function openCommandStores(args: ParsedArgs, mayCreate = false, logLevel = args.config.logLevel): Promise<CommandStores> {
  const { config } = args;
  const o = await openStores(config, {
    clock: systemClock,
    bootId: newBootId(),
    logger: createLogger(logLevel, 2),
    purpose: "command",
    mayCreate,
  });
  const { auth, admin, account, usage, usageExport, market } = o.stores;
  return {
    auth,
    admin,
    account,
    usage,
    usageExport,
    market,
    where: o.where,
    created: o.created,
    applied: o.applied,
    sample: o.sample,
    close: o.close,
  };
}
