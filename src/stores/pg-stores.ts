/** The stores over one PostgreSQL pool (stores.ts), the schema migrated and a fresh database given the sample. */
import type { SQL } from "bun";
import { openPg } from "../../db/pg/open.ts";
import { countServerConnections, readMaxConnections } from "../../db/pg/connection-statements.ts";
import { createPgAdminStore } from "../admin/admin-stores.ts";
import { pgUsageExportPort } from "../../db/pg/usage-export-statements.ts";
import { createUsageExport } from "../metering/usage-export.ts";
import { createPgAuthStore } from "../auth/index.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { createPgAccountStore } from "../../db/pg/account-statements.ts";
import { createPgSessionStore } from "../dashboard/session-stores.ts";
import type { LoadSampleResult } from "../market/sample-policy.ts";
import { loadSampleIfFresh } from "./fresh-pg-sample.ts";
import { openMarketStore } from "../market/open-store.ts";
import type { Logger } from "../logger.ts";
import {
  createPgMeter,
  createUsageOverview,
  createUsageReport,
  pgReconcilePort,
  pgRetentionPort,
  pgUsagePort,
  pruneAudit,
  reconcileUnanswered,
  startAuditMaintenance,
} from "../metering/index.ts";
import { reuseHealthy } from "./health-cache.ts";
import type { Stores } from "./stores.ts";

/** A ping that takes longer than this counts as a failure, so /health answers promptly when the network hangs. */
const PING_TIMEOUT_MS = 1000;

export interface PgPool {
  size: number;
  statementTimeoutMs: number;
}

export interface OpenedPgStores {
  stores: Stores;
  /** Migrations this open applied. */
  applied: number;
  /** The sample this open loaded into a fresh database, or null. */
  sample: LoadSampleResult | null;
}

export async function pgStores(
  config: Config & { databaseUrl: string },
  clock: Clock,
  bootId: string,
  logger: Logger,
  pool: PgPool,
): Promise<OpenedPgStores> {
  const pg = await openPg(config.databaseUrl, { poolSize: pool.size, statementTimeoutMs: pool.statementTimeoutMs });
  if (pg.applied > 0) logger.info({ applied: pg.applied }, "applied PostgreSQL migrations");
  const inFlight = { n: 0 };
  const meter = countCalls(createPgMeter(pg.sql, clock, bootId, { lockWaitMs: pool.statementTimeoutMs }), inFlight);
  const market = openMarketStore({ kind: "postgres", sql: pg.sql });
  const t0 = performance.now();
  const loaded = await loadSampleIfFresh(market, { applied: pg.applied, sample: config.sample }).catch(async (err: unknown) => {
    await pg.close();
    throw err;
  });
  if (loaded) logger.info({ ...loaded, ms: Math.round(performance.now() - t0) }, "loaded the synthetic sample universe");
  // Without it /metrics leaves the connection series out; serving does not depend on it.
  const maxConnections = await readMaxConnections(pg.sql).catch(() => null);
  const auth = countCalls(createPgAuthStore(pg.db), inFlight);
  const stores: Stores = {
    kind: "postgres",
    auth,
    admin: countCalls(createPgAdminStore(pg.sql, auth, clock), inFlight),
    sessions: countCalls(createPgSessionStore(pg.db, clock), inFlight),
    account: countCalls(createPgAccountStore(pg.db), inFlight),
    meter,
    market,
    usage: createUsageReport(pgUsagePort(pg.sql)),
    usageOverview: createUsageOverview(pgUsagePort(pg.sql)),
    usageExport: createUsageExport(pgUsageExportPort(pg.sql), auth),
    checkDatabase: pgHealth(pg.sql),
    // More calls than connections wait in the pool's queue; the gauge is connections in use.
    connectionsInUse: () => Math.min(inFlight.n, pool.size),
    serverConnections: maxConnections === null ? undefined : { max: maxConnections, open: countServerConnections(pg.sql) },
    reconcile: (self) => reconcileUnanswered(pgReconcilePort(pg.sql), self, clock),
    startMaintenance(retentionDays, log) {
      return startAuditMaintenance(meter, () => pruneAudit(pgRetentionPort(pg.sql), clock, retentionDays), clock, retentionDays, log);
    },
    close: () => pg.close(),
  };
  return { stores, applied: pg.applied, sample: loaded };
}

/**
 * Wraps every method that returns a promise so `counter.n` is the number of calls in flight:
 * Bun.sql exposes no pool statistics, and each store call holds one connection while it runs.
 */
export function countCalls<T extends object>(target: T, counter: { n: number }): T {
  const wrapped = {} as Record<string, unknown>;
  for (const [key, value] of Object.entries(target)) {
    wrapped[key] =
      typeof value !== "function"
        ? value
        : (...args: unknown[]) => {
            const result = value.apply(target, args);
            if (!(result instanceof Promise)) return result;
            counter.n++;
            return result.finally(() => counter.n--);
          };
  }
  return wrapped as T;
}

/** /health and the live route's probe on PostgreSQL: one `SELECT 1`, bounded by PING_TIMEOUT_MS, shared by concurrent callers. */
function pgHealth(sql: SQL): () => boolean | Promise<boolean> {
  return reuseHealthy(() =>
    Promise.race([
      sql`SELECT 1 AS ok`.then(
        () => true,
        () => false,
      ),
      Bun.sleep(PING_TIMEOUT_MS).then(() => false),
    ]),
  );
}
