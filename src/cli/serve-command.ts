/**
 * `serve`: one process, or with --workers N a supervisor and N processes sharing the port
 * (SO_REUSEPORT) and the database file; metering stays exact because it is one SQLite transaction.
 * SIGTERM/SIGINT drain in-flight requests, then close the database.
 */
import { createLogger } from "../logger.ts";
import { startServer } from "../server.ts";
import { redactDatabaseUrl } from "../config.ts";
import { openCommandStores } from "./command-stores.ts";
import { resolveSecret } from "../auth/index.ts";
import { parseDuration } from "../auth/duration.ts";
import { UsageError, type ParsedArgs } from "./args.ts";
import { recordServerSettings } from "./server-settings.ts";
import { superviseWorkers, whenSupervisorGone } from "./worker-supervisor.ts";
import { workerRestartsEnv } from "../worker-restarts.ts";
import { checkSignInConfig } from "../dashboard/sign-in.ts";
import { acrossWorkers, metricsRelay } from "../http/worker-metrics.ts";

const WORKER_ENV = "GRAPH_STATS_WORKER_CHILD";

export async function serveCommand(args: ParsedArgs): Promise<number> {
  const { config } = args;
  try {
    parseDuration(config.tokenTtl); // token create uses it: refuse it here rather than there
  } catch (err) {
    throw new UsageError(`--token-ttl (GRAPH_STATS_TOKEN_TTL): ${(err as Error).message}`);
  }
  try {
    checkSignInConfig(config); // before any worker starts, so a bad setting is one message, not restarts
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const logger = createLogger(config.logLevel, 1, true);
  if (config.workers > 1 && process.env[WORKER_ENV] !== "1") return supervise(args, logger);

  // The handlers go in before the socket opens, so a signal at any moment after it drains. Installed
  // after "listening" (as before), a SIGTERM in between killed the process outright, its accepted
  // connections reset: a supervisor forwarding SIGTERM just after a replacement's "listening" line saw
  // it die by the signal and exited 1 (serve-workers.test.ts, under load; 3 of 3 at 1 ms after the line).
  const worker = process.env[WORKER_ENV] === "1";
  let stopSharing = () => {};
  let release = () => {};
  let unwatch = () => {};
  const signalled = new Promise<string>((resolve) => {
    const onTerm = () => resolve("SIGTERM");
    const onInt = () => resolve("SIGINT");
    process.once("SIGTERM", onTerm);
    process.once("SIGINT", onInt);
    if (worker) unwatch = whenSupervisorGone(() => resolve("supervisor gone"));
    release = () => {
      process.off("SIGTERM", onTerm);
      process.off("SIGINT", onInt);
      unwatch();
      stopSharing();
    };
  });
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(config, logger, {
      reusePort: config.workers > 1,
      metrics: worker
        ? (local) => {
            const shared = acrossWorkers(local, logger);
            stopSharing = shared.stop;
            return shared.metrics;
          }
        : undefined,
    });
    await recordServerSettings(server.stores.auth, config);
  } catch (err) {
    release(); // a failed start exits with its message, not held open by the handlers
    throw err;
  }
  // The URL's password is never logged.
  const where = config.databaseUrl ? { database: redactDatabaseUrl(config.databaseUrl) } : { db: config.db };
  const ready = { port: server.port, host: config.host, ...where, worker };
  // Scripts wait for this line, so it is printed whatever the log level.
  if (logger.isLevelEnabled("info")) logger.info(ready, "listening");
  else console.log(JSON.stringify({ level: "info", time: new Date().toISOString(), pid: process.pid, ...ready, msg: "listening" }));
  logger.flush();
  // A person at a terminal gets one plain line to click; logs on a pipe stay JSON only.
  if (process.stderr.isTTY && !worker) {
    const base = (config.publicUrl ?? server.url).replace(/\/+$/, "");
    process.stderr.write(`graph-stats is running: the dashboard is at ${base}/dashboard (Ctrl-C stops it)\n`);
  }
  // A signal that came while starting is answered now: nothing is in flight yet, so the drain is short.
  const signal = await signalled;
  unwatch(); // nothing left reading the supervisor's pipe, so it holds the process open no longer
  logger.info({ signal }, "shutting down: draining in-flight requests");
  await server.stop();
  stopSharing(); // the IPC listener would hold the process open
  logger.info("stopped");
  logger.flush();
  return 0;
}

/** Prepares the database once, then runs N children on one port (see worker-supervisor.ts). */
async function supervise(args: ParsedArgs, logger: ReturnType<typeof createLogger>): Promise<number> {
  const { config } = args;
  // The schema and, on a fresh database, the sample first (as one serve would), then the settings.
  const stores = await openCommandStores(args, true);
  try {
    await resolveSecret(stores.auth, config.jwtSecret, (msg) => logger.warn(msg));
    await recordServerSettings(stores.auth, config);
  } finally {
    await stores.close();
  }
  let port = config.port;
  if (port === 0) {
    // Children must share one concrete port: take a free one now.
    const probe = Bun.serve({ port: 0, hostname: config.host, fetch: () => new Response() });
    port = probe.port as number;
    probe.stop(true);
  }
  const self = Bun.main.startsWith("/$bunfs/") ? [process.execPath] : [process.execPath, Bun.main];
  const argv = process.argv.slice(2).filter((a, i, all) => !(a === "--port" || all[i - 1] === "--port" || a.startsWith("--port=")));
  logger.info({ port, workers: config.workers }, "supervising workers");
  const relay = metricsRelay(logger);
  const spawn = (restarts: number) =>
    relay.track(
      Bun.spawn([...self, ...argv, "--port", String(port)], {
        env: { ...process.env, [WORKER_ENV]: "1", ...workerRestartsEnv(restarts) },
        // stdin: the pipe whose end tells a worker its supervisor is gone (whenSupervisorGone).
        stdio: ["pipe", "inherit", "inherit"],
        // The channel a scraped worker asks for the others' metrics over (worker-metrics.ts).
        ipc: relay.receive,
      }),
    );
  return superviseWorkers({ workers: config.workers, spawn, logger });
}
