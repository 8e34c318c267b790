/**
 * Wires the real parts together — database, secret, verifier, limiter, chart and demo services —
 * and listens. Used by `serve` (and by tests, which pass their own clock and port 0).
 */
import type { Server } from "bun";
import type { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import pkg from "../../package.json" with { type: "json" };
import { openDatabase, type OpenedDb } from "../../db/open.ts";
import { createVerifier, ensureUser, getUser, isRevoked, resolveSecret } from "../auth/index.ts";
import { systemClock, type Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { createLimiter, newBootId, reconcileUnanswered, startAuditMaintenance } from "../metering/index.ts";
import { loadSample, SAMPLE_END_DATE } from "../market/index.ts";
import { createApp } from "./app.ts";
import { createAuthGate } from "./auth-gate.ts";
import { ChartService } from "./chart-service.ts";
import { openMarketStore } from "../market/open-store.ts";
import type { AppDeps } from "./context.ts";
import { DemoService } from "./demo-service.ts";
import { startCheckpointer, type Checkpointer } from "./checkpointer.ts";
import { startComputePool, type ComputePool } from "./compute-pool.ts";
import { parseDuration } from "../auth/index.ts";
import { createAccount } from "../dashboard/account.ts";
import { dashboardRoutes } from "../dashboard/routes.ts";
import { createSealer, deriveKey } from "../dashboard/sealed-cookie.ts";
import { createSessionStore } from "../dashboard/session-store.ts";
import { checkSignInConfig, defaultPublicUrl, setUpSignIn, type SignInSetup } from "../dashboard/sign-in.ts";
import { loadWebAssets } from "../dashboard/web-assets.ts";
import { createMetrics, metricsAllowList } from "./metrics.ts";

export const VERSION: string = pkg.version;

export interface RunningServer {
  port: number;
  url: string;
  opened: OpenedDb;
  checkpointer: Checkpointer;
  compute: ComputePool;
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  stop(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  /** Several processes share the port (serve --workers). */
  reusePort?: boolean;
  /** Tests replace parts (e.g. a failing chart service) while everything else stays real. */
  override?: Partial<AppDeps>;
}

/** The server's lock wait: short, because a wait blocks the event loop (see db/open.ts). */
export const SERVER_BUSY_TIMEOUT_MS = 1000;

/** Opens the database (loading the sample when it creates the file) and returns it. */
export function prepareDatabase(config: Config, logger: Logger, busyTimeoutMs?: number): OpenedDb {
  const opened = openDatabase(config.db, { busyTimeoutMs });
  if (opened.created && config.sample) {
    const t0 = performance.now();
    const loaded = loadSample(opened);
    logger.info({ ...loaded, ms: Math.round(performance.now() - t0) }, "loaded the synthetic sample universe");
  }
  return opened;
}

export function startServer(config: Config, logger: Logger, options: StartOptions = {}): RunningServer {
  const clock = options.clock ?? systemClock;
  checkSignInConfig(config);
  const opened = prepareDatabase(config, logger, SERVER_BUSY_TIMEOUT_MS);
  const { sqlite } = opened;
  const fileIdentity = databaseIdentity(config.db);
  const secret = resolveSecret(sqlite, config.jwtSecret, (msg) => logger.warn(msg));
  const verify = createVerifier({
    secret,
    previousSecrets: config.jwtPreviousSecrets,
    clock,
    isRevoked: (jti) => isRevoked(sqlite, jti),
  });
  let shuttingDown = false;
  const bootId = newBootId();
  reconcileAtStart(sqlite, bootId, clock, logger);
  const compute = startComputePool(config.computeThreads, logger);
  const health = sqlite.query("SELECT 1 AS ok");
  const chart = new ChartService(openMarketStore({ kind: "sqlite", sqlite, path: config.db }), compute, { costBudget: config.costBudget, cacheBytes: config.cacheMb * 2 ** 20 });
  const deps: AppDeps = {
    clock,
    logger,
    version: VERSION,
    startedAt: clock.now(),
    defaultUniverse: config.defaultUniverse,
    corsOrigins: config.corsOrigins,
    auth: createAuthGate({
      verify,
      // A read first: the write (first use, or filling a missing email) is rare.
      ensureUser: (id, email) => {
        const known = getUser(sqlite, id);
        return known && (known.email !== null || email === undefined) ? known : ensureUser(sqlite, id, email, clock.now());
      },
      defaults: { perMinute: config.ratePerMinute, perDay: config.ratePerDay },
    }),
    limiter: createLimiter(sqlite, clock, bootId),
    chart,
    demo: new DemoService(compute, SAMPLE_END_DATE),
    // The file must still be the one we opened (deleted or replaced → writes would be lost) and answer.
    checkDatabase: reuseHealthy(() => databaseIdentity(config.db) === fileIdentity && (health.get() as { ok: number } | null)?.ok === 1),
    isShuttingDown: () => shuttingDown,
    metrics: createMetrics({
      computeQueueDepth: () => compute.queued(),
      cacheBytes: () => chart.cacheBytes(),
      dbConnectionsInUse: () => (sqlite.inTransaction ? 1 : 0),
    }),
    metricsAllowed: metricsAllowList(config.metricsAllow),
    ...options.override,
  };
  let port = config.port;
  let signIn: SignInSetup | null = null;
  const publicUrl = () => config.publicUrl?.replace(/\/+$/, "") ?? defaultPublicUrl(config, port);
  const sessions = createSessionStore(opened.db, clock);
  // Idle sessions are deleted at start and hourly, so the table holds only live ones.
  const pruneSessions = () => {
    try {
      sessions.prune();
    } catch (err) {
      logger.warn({ err: (err as Error).message }, "could not prune idle dashboard sessions");
    }
  };
  pruneSessions();
  const pruneTimer = setInterval(pruneSessions, 3600_000);
  pruneTimer.unref();
  deps.dashboard ??= dashboardRoutes({
    app: deps,
    sqlite,
    sessions,
    account: createAccount({
      db: opened.db,
      sqlite,
      clock,
      limiter: deps.limiter,
      secret,
      ttlSeconds: parseDuration(config.tokenTtl),
      baseUrl: publicUrl,
    }),
    signIn: () => signIn?.client ?? null,
    dev: config.dev && !config.oidcIssuer,
    publicUrl,
    publicUrlConfigured: config.publicUrl !== undefined,
    loginSealer: createSealer(deriveKey(secret, "dashboard sign-in state"), 600, clock),
    defaults: { perMinute: config.ratePerMinute, perDay: config.ratePerDay },
    assets: loadWebAssets,
  });
  const auditMaintenance = startAuditMaintenance(sqlite, deps.limiter, clock, config.auditRetentionDays, logger);
  const checkpointer = startCheckpointer(sqlite, config.db, logger);
  const app = createApp(deps).listen({ port: config.port, hostname: config.host, reusePort: options.reusePort ?? false });
  const server = app.server as Server<unknown>;
  port = server.port as number;
  signIn = setUpSignIn(config, publicUrl, port, logger);
  return {
    port,
    url: `http://${config.host === "0.0.0.0" ? "127.0.0.1" : config.host}:${port}`,
    opened,
    checkpointer,
    compute,
    async stop() {
      shuttingDown = true;
      await server.stop(false);
      await signIn?.stop();
      clearInterval(pruneTimer);
      compute.stop();
      checkpointer.stop();
      auditMaintenance.stop();
      sqlite.close();
    },
  };
}

/** Refunds the requests a dead process admitted but never answered (metering/reconcile.ts), and says how many. */
function reconcileAtStart(sqlite: Database, bootId: string, clock: Clock, logger: Logger): void {
  try {
    const { refunded, processes } = reconcileUnanswered(sqlite, bootId, clock);
    if (refunded > 0) logger.warn({ refunded, processes }, "refunded requests admitted but never answered by a process that ended");
  } catch (err) {
    // Serving stays possible; the next start tries again.
    logger.error({ err: (err as Error).message }, "could not reconcile unanswered requests");
  }
}

/** How long a healthy database check is reused; see reuseHealthy. */
export const HEALTH_CHECK_MS = 100;

/**
 * Reuses a healthy answer for HEALTH_CHECK_MS (monotonic time, not the injected clock); a failing
 * answer is never reused. The stat(2) and the query cost ~10% of /health's CPU under load
 * (bench/http.bench.ts), and every live request runs the check too. So a deleted, replaced or
 * closed database is reported within 100 ms, which is what a liveness probe needs.
 */
function reuseHealthy(check: () => boolean): () => boolean {
  let healthyUntil = -Infinity;
  return () => {
    const now = performance.now();
    if (now < healthyUntil) return true;
    if (!check()) return false;
    healthyUntil = now + HEALTH_CHECK_MS;
    return true;
  };
}

/** Device and inode of the database file ("memory" for :memory:, null when it is missing). */
function databaseIdentity(path: string): string | null {
  if (path === ":memory:") return "memory";
  try {
    const st = statSync(path);
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
}
