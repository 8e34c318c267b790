/**
 * The server's stores, opened by configuration (README.md § PostgreSQL): on SQLite (the default) everything
 * over the one file, as before; with a PostgreSQL URL the users, tokens, sessions, settings and the
 * meter over one pool shared by every instance, the schema migrated at start. Routes see only the
 * interfaces, never which database answers.
 */
import type { SQL } from "bun";
import {
  startAuditMaintenance,
  startAuditMaintenancePg,
  asyncLimiter,
  createLimiter,
  createPgLimiter,
  reconcileUnanswered,
  reconcileUnansweredPg,
  type AsyncLimiter,
  type Reconciled,
} from "../metering/index.ts";
import { createPgAuthStore, createSqliteAuthStore, type AuthStore } from "../auth/index.ts";
import { createSessionStore, type SessionStore } from "../dashboard/session-store.ts";
import { createPgSessionStore } from "../dashboard/session-store-pg.ts";
import { createSqliteAccountStore, type AccountStore } from "../dashboard/account-store.ts";
import { createPgAccountStore } from "../dashboard/account-store-pg.ts";
import { openPg } from "../../db/pg/open.ts";
import { loadSampleIfFresh } from "../market/pg/fresh-sample.ts";
import { pgMarketStore } from "../market/pg/pg-store.ts";
import { sqliteMarketStore } from "../market/sqlite-store.ts";
import type { MarketStore } from "../market/store.ts";
import type { OpenedDb } from "../../db/open.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";

export interface Stores {
  kind: "sqlite" | "postgres";
  auth: AuthStore;
  sessions: SessionStore;
  account: AccountStore;
  limiter: AsyncLimiter;
  /** Bars, universes and the data version: the SQLite file, or the shared PostgreSQL. */
  market: MarketStore;
  /** A cheap liveness probe; PostgreSQL's answers at once from its last ping (see pgHealth). */
  checkDatabase(): boolean | Promise<boolean>;
  /** Database calls in flight (for /metrics). */
  connectionsInUse(): number;
  reconcile(bootId: string): Promise<Reconciled>;
  /** Flushes and prunes in the background; `stop` writes what is still gathered. */
  startMaintenance(retentionDays: number, logger: Logger): { stop(): Promise<void> };
  close(): Promise<void>;
}

/** How long a healthy answer is reused (as server.ts's reuseHealthy for SQLite). */
const HEALTH_CHECK_MS = 100;
/** A ping that takes longer than this counts as a failure, so /health answers promptly when the network hangs. */
const PING_TIMEOUT_MS = 1000;

export function sqliteStores(opened: OpenedDb, clock: Clock, bootId: string, checkDatabase: () => boolean): Stores {
  const { sqlite } = opened;
  const meter = createLimiter(sqlite, clock, bootId);
  return {
    kind: "sqlite",
    auth: createSqliteAuthStore(sqlite),
    sessions: createSessionStore(opened.db, clock),
    account: createSqliteAccountStore(opened.db),
    limiter: asyncLimiter(meter),
    market: sqliteMarketStore(sqlite, opened.path),
    checkDatabase,
    connectionsInUse: () => (sqlite.inTransaction ? 1 : 0),
    reconcile: async (self) => reconcileUnanswered(sqlite, self, clock),
    startMaintenance(retentionDays, logger) {
      const m = startAuditMaintenance(sqlite, meter, clock, retentionDays, logger);
      return { stop: async () => m.stop() };
    },
    close: async () => {},
  };
}

export async function pgStores(config: Config & { databaseUrl: string }, clock: Clock, bootId: string, logger: Logger): Promise<Stores> {
  const pg = await openPg(config.databaseUrl, { poolSize: config.dbPool, statementTimeoutMs: config.dbStatementTimeout });
  if (pg.applied > 0) logger.info({ applied: pg.applied }, "applied PostgreSQL migrations");
  const inFlight = { n: 0 };
  const limiter = countCalls(createPgLimiter(pg.sql, clock, bootId, { lockWaitMs: config.dbStatementTimeout }), inFlight);
  const market = pgMarketStore(pg.sql);
  const t0 = performance.now();
  const loaded = await loadSampleIfFresh(pg.sql, market, { applied: pg.applied, sample: config.sample }).catch(async (err: unknown) => {
    await pg.close();
    throw err;
  });
  if (loaded) logger.info({ ...loaded, ms: Math.round(performance.now() - t0) }, "loaded the synthetic sample universe");
  return {
    kind: "postgres",
    auth: countCalls(createPgAuthStore(pg.db), inFlight),
    sessions: countCalls(createPgSessionStore(pg.db, clock), inFlight),
    account: countCalls(createPgAccountStore(pg.db), inFlight),
    limiter,
    market,
    checkDatabase: pgHealth(pg.sql),
    // More calls than connections wait in the pool's queue; the gauge is connections in use.
    connectionsInUse: () => Math.min(inFlight.n, config.dbPool),
    reconcile: (self) => reconcileUnansweredPg(pg.sql, self, clock),
    startMaintenance(retentionDays, log) {
      const m = startAuditMaintenancePg(pg.sql, limiter, clock, retentionDays, log);
      return { stop: () => m.stopAsync() };
    },
    close: () => pg.close(),
  };
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

/**
 * /health and the live route's probe on PostgreSQL: a healthy `SELECT 1` is reused for 100 ms;
 * past that one ping runs (concurrent callers share it), bounded by PING_TIMEOUT_MS. Nothing blocks
 * the event loop: callers await the shared ping.
 */
function pgHealth(sql: SQL): () => boolean | Promise<boolean> {
  let healthyUntil = -Infinity;
  let ping: Promise<boolean> | null = null;
  return () => {
    if (performance.now() < healthyUntil) return true;
    ping ??= Promise.race([
      sql`SELECT 1 AS ok`.then(
        () => true,
        () => false,
      ),
      Bun.sleep(PING_TIMEOUT_MS).then(() => false),
    ]).then((ok) => {
      if (ok) healthyUntil = performance.now() + HEALTH_CHECK_MS;
      ping = null;
      return ok;
    });
    return ping;
  };
}
