/**
 * Wires the real parts together — database, secret, verifier, meter, chart and demo services —
 * and listens. Used by `serve` (and by tests, which pass their own clock and port 0).
 */
import type { Server } from "bun";
import type { OpenedDb } from "../db/sqlite/open.ts";
import { createVerifier, resolveSecret } from "./auth/index.ts";
import { systemClock, type Clock } from "./clock.ts";
import { redactDatabaseUrl, type Config } from "./config.ts";
import type { Logger } from "./logger.ts";
import { collapseRepeatedErrors } from "./collapsed-errors.ts";
import { createLastKnown, newBootId, PRUNE_MS } from "./metering/index.ts";
import { SAMPLE_END_DATE } from "./market/index.ts";
import { createApp } from "./http/app.ts";
import { createAuthGate } from "./http/auth-gate.ts";
import { createNewUsers } from "./auth/new-users.ts";
import { ChartService } from "./compute/chart-service.ts";
import { UniverseCatalogue } from "./market/catalogue-cache.ts";
import { AdmittedWork } from "./compute/admitted-work.ts";
import type { AppDeps } from "./http/context.ts";
import { DemoService } from "./http/demo-service.ts";
import { startCheckpointer, type Checkpointer } from "../db/sqlite/checkpointer.ts";
import type { ComputePool } from "./compute/compute-pool.ts";
import { startComputePool } from "./compute/compute-threads.ts";
import { parseDuration } from "./auth/index.ts";
import { createAccount } from "./dashboard/account.ts";
import { dashboardRoutes, LOGIN_TTL_S } from "./dashboard/routes.ts";
import { createSealer, deriveKey } from "./dashboard/sealed-cookie.ts";
import type { OidcClient } from "./dashboard/oidc-client.ts";
import { checkSignInConfig, defaultPublicUrl, setUpSignIn, type SignInSetup } from "./dashboard/sign-in.ts";
import { loadWebAssets } from "./dashboard/web-assets.ts";
import { clientAddressFrom } from "./http/client-address.ts";
import { createMetrics, type Metrics, metricsAllowList } from "./http/metrics.ts";
import { DRAIN_MAX_MS, DRAIN_QUIET_MS, waitForQuiet } from "./http/drain.ts";
import { openStores } from "./stores/open-stores.ts";
import { filesystemSpace } from "./stores/filesystem-space.ts";
import { followWorkerRestarts } from "./worker-restarts.ts";
import type { Stores } from "./stores/stores.ts";
import { commit, VERSION } from "./version.ts";
import { PG_MIGRATIONS } from "../db/pg/migrations.ts";
import { MIGRATIONS } from "../db/sqlite/migrations.ts";

export interface RunningServer {
  port: number;
  url: string;
  /** The SQLite file holding every store; null on PostgreSQL, where nothing is kept in SQLite. */
  opened: OpenedDb | null;
  stores: Stores;
  checkpointer: Checkpointer;
  compute: ComputePool;
  /** The app's handler without the socket: tests of pure HTTP behaviour (routing, envelope, headers, CORS) call it. */
  handle(request: Request): Promise<Response>;
  /** Stops accepting, lets in-flight requests finish, then closes the database. */
  stop(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  /** Several processes share the port (serve --workers). */
  reusePort?: boolean;
  /** Tests replace parts (e.g. a failing chart service) while everything else stays real. */
  override?: Partial<AppDeps>;
  /** Seconds a connection may stay silent (Bun's idleTimeout; live answers lift it): tests shorten it. */
  idleTimeoutSeconds?: number;
  /** The dashboard's sign-in client in place of the configured provider's: tests of the callback's own rules. */
  signIn?: OidcClient;
  /** Wraps this process's metrics (serve --workers: /metrics answers for every worker; worker-metrics.ts). */
  metrics?: (local: Metrics) => Metrics;
}

/** A silent connection is closed after this long; the live endpoint lifts it while it computes (metered.ts). */
const IDLE_TIMEOUT_S = 30;

export async function startServer(config: Config, given: Logger, options: StartOptions = {}): Promise<RunningServer> {
  const clock = options.clock ?? systemClock;
  // A condition every request meets (a full disk) is one error line and a count, not a line per request.
  const logger = collapseRepeatedErrors(given, clock);
  checkSignInConfig(config);
  const bootId = newBootId();
  // On PostgreSQL every store lives there: no SQLite file is opened (nor created with a sample of its own).
  const opening = await openStores(config, { clock, bootId, logger, purpose: "serve", mayCreate: true });
  const { stores, opened } = opening;
  if (config.databaseUrl) logger.info({ database: redactDatabaseUrl(config.databaseUrl), pool: config.dbPool }, "using PostgreSQL");
  const secret = await resolveSecret(stores.auth, config.jwtSecret, (msg) => logger.warn(msg));
  const verifierOptions = { secret, previousSecrets: config.jwtPreviousSecrets, clock };
  // Signature, claims and expiry: revocation is read with the user (auth-gate.ts), so this also tells
  // who a 503 is for when the database cannot say more.
  const verify = createVerifier(verifierOptions);
  let shuttingDown = false;
  // Every request asks isShuttingDown once (app.ts wrap); while draining, the asks are the arrivals.
  let seenWhileDraining = 0;
  await reconcileAtStart(stores, bootId, logger);
  const newUsers = createNewUsers(
    stores.auth,
    () => clock.now(),
    // A first use is on the default plan: its row's limits where an operator redefined it.
    async () => {
      const free = await stores.admin.freePlan();
      return {
        disabled: false,
        perMinute: null,
        perDay: null,
        planPerMinute: free?.perMinute ?? null,
        planPerDay: free?.perDay ?? null,
        plan: null,
        admin: false,
      };
    },
  );
  const compute = startComputePool(config.computeThreads, logger);
  const admitted = new AdmittedWork({ costMs: config.admittedCost, bytes: config.admittedMb * 2 ** 20 }, () => compute.size);
  const chart = new ChartService(stores.market, compute, {
    costBudget: config.costBudget,
    cacheBytes: config.cacheMb * 2 ** 20,
    seriesCacheBytes: config.seriesCacheMb * 2 ** 20,
    admitted,
  });
  const catalogue = new UniverseCatalogue(stores.market);
  const restarts = followWorkerRestarts(process.env);
  const deps: AppDeps = {
    clock,
    logger,
    version: VERSION,
    build: { commit: commit(), schema: (stores.kind === "postgres" ? PG_MIGRATIONS : MIGRATIONS).at(-1)!.tag },
    startedAt: clock.now(),
    defaultUniverse: config.defaultUniverse,
    corsOrigins: config.corsOrigins,
    auth: createAuthGate({
      verify,
      caller: (id, email, jti) => newUsers.ensure(id, email, jti),
      defaults: { perMinute: config.ratePerMinute, perDay: config.ratePerDay },
    }),
    identify: async (header) => {
      const r = await verify(header);
      return r.ok ? r.claims.sub : null;
    },
    meter: stores.meter,
    usageExport: stores.usageExport,
    lastKnown: createLastKnown(),
    chart,
    universes: catalogue,
    demo: new DemoService(compute, SAMPLE_END_DATE),
    checkDatabase: stores.checkDatabase,
    isShuttingDown: () => {
      if (shuttingDown) seenWhileDraining++;
      return shuttingDown;
    },
    metrics: (options.metrics ?? ((m: Metrics) => m))(
      createMetrics({
        computeQueueDepth: () => compute.queued(),
        computeJobs: () => ({ engine: compute.started(), render: compute.rendered() }),
        cacheBytes: () => chart.cacheBytes(),
        seriesCacheBytes: () => chart.seriesCacheBytes(),
        dbConnectionsInUse: stores.connectionsInUse,
        admittedCostMs: () => admitted.inUse().costMs,
        admittedBytes: () => admitted.inUse().bytes,
        // Read through deps when scraped: the same probe and meter as /health's (a test's override included).
        databaseUp: () => deps.checkDatabase(),
        meterWriteFailing: () => deps.meter.writeFailure() !== null,
        lastBars: () => deps.universes.lastBars(),
        admittedLimitBytes: config.admittedMb * 2 ** 20,
        dbFilesystem: opened ? filesystemSpace(opened.path) : undefined,
        dbServerConnections: stores.serverConnections,
        workerRestarts: restarts?.read,
      }),
    ),
    clientAddress: clientAddressFrom(config.trustedProxies),
    metricsAllowed: metricsAllowList(config.metricsAllow),
    // Called at request time, once the port (and so the default public URL) is known.
    publicUrl: () => publicUrl(),
    ...options.override,
  };
  let port = config.port;
  let signIn: SignInSetup | null = null;
  const publicUrl = () => config.publicUrl?.replace(/\/+$/, "") ?? defaultPublicUrl(config, port);
  const sessions = stores.sessions;
  // Idle sessions are deleted at start and hourly, so the table holds only live ones.
  const pruneSessions = () =>
    sessions.prune().catch((err: unknown) => logger.warn({ err: (err as Error).message }, "could not prune idle dashboard sessions"));
  await pruneSessions();
  const pruneTimer = setInterval(pruneSessions, PRUNE_MS);
  pruneTimer.unref();
  deps.dashboard ??= dashboardRoutes({
    app: deps,
    auth: stores.auth,
    sessions,
    admin: stores.admin,
    usageOverview: stores.usageOverview,
    account: createAccount({
      store: stores.account,
      auth: stores.auth,
      clock,
      meter: deps.meter,
      secret,
      ttlSeconds: parseDuration(config.tokenTtl),
      baseUrl: publicUrl,
    }),
    signIn: () => options.signIn ?? signIn?.client ?? null,
    dev: config.dev && !config.oidcIssuer,
    publicUrl,
    publicUrlConfigured: config.publicUrl !== undefined,
    loginSealer: createSealer(deriveKey(secret, "dashboard sign-in state"), LOGIN_TTL_S, clock),
    defaults: { perMinute: config.ratePerMinute, perDay: config.ratePerDay },
    assets: loadWebAssets,
  });
  const auditMaintenance = stores.startMaintenance(config.auditRetentionDays, logger);
  const checkpointer: Checkpointer = opened ? startCheckpointer(opened.sqlite, config.db, logger) : { runs: () => 0, stop() {} };
  const app = createApp(deps).listen({
    port: config.port,
    hostname: config.host,
    reusePort: options.reusePort ?? false,
    idleTimeout: options.idleTimeoutSeconds ?? IDLE_TIMEOUT_S,
  });
  const server = app.server as Server<unknown>;
  port = server.port as number;
  signIn = setUpSignIn(config, publicUrl, port, logger);
  return {
    port,
    url: `http://${config.host === "0.0.0.0" ? "127.0.0.1" : config.host}:${port}`,
    opened,
    stores,
    checkpointer,
    compute,
    handle: (request) => app.handle(request),
    async stop() {
      shuttingDown = true;
      await waitForQuiet({ seen: () => seenWhileDraining, quietMs: DRAIN_QUIET_MS, maxMs: DRAIN_MAX_MS });
      await server.stop(false);
      await signIn?.stop();
      clearInterval(pruneTimer);
      compute.stop();
      await newUsers.flush().catch(() => {});
      checkpointer.stop();
      await auditMaintenance.stop();
      await opening.close();
      restarts?.stop();
      logger.flush(); // the counts of repeated error lines still in their period
    },
  };
}

/** Refunds the requests a dead process admitted but never answered (metering/reconcile.ts), and says how many. */
async function reconcileAtStart(stores: Stores, bootId: string, logger: Logger): Promise<void> {
  try {
    const { refunded, processes } = await stores.reconcile(bootId);
    if (refunded > 0) logger.warn({ refunded, processes }, "refunded requests admitted but never answered by a process that ended");
  } catch (err) {
    // Serving stays possible; the next start tries again.
    logger.error({ err: (err as Error).message }, "could not reconcile unanswered requests");
  }
}
