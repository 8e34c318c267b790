/**
 * `npm run load -- <script> [--instances N] [--database-url URL] [k6 args]`: starts graph-stats on a
 * temporary database (127.0.0.1, random port, raised limits) — N processes on the one database file with
 * `--instances N` (limits and soak) —, mints tokens, runs `k6 run load/<script>.js` against them (BASE_URL,
 * and BASE_URLS listing every instance), then stops the servers. `--database-url` is forwarded to the
 * servers as GRAPH_STATS_DATABASE_URL, for a shared PostgreSQL.
 * The scripts run in the `full` profile (graph-stats' own forms); `-e PROFILE=core` overrides it.
 * Exit codes: k6's own (0 passed, 99 thresholds failed, ...); 2 usage; 3 k6 not found; 4 server failed.
 * Settings: LOAD_USERS (tokens to mint, default 100 or -e VUS if larger), LOAD_RATE_PER_MINUTE (2),
 * LOAD_RATE_PER_DAY (1000), K6 (path to k6), LOAD_OUT_DIR (where the summary JSON goes, default load/out/),
 * LOAD_FROM_SOURCE=1 (run src/cli.ts even when dist/graph-stats exists). For `live` the defaults follow its
 * -e USERS/RATE/DURATION so that no request is refused (runner/k6.ts `runDefaults`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { EXIT_NO_K6, SCRIPTS, envArgs, findK6, k6RunArgs, noK6Message, runDefaults, workspaceK6 } from "./runner/k6.ts";
import { graphStatsCommand, mintTokens } from "./runner/server.ts";
import { startInstances, type RunningInstances } from "./runner/instances.ts";
import { requireMultiInstanceScript, runnerArgs, type RunnerArgs } from "./runner/args.ts";

const ROOT = resolve(import.meta.dir, "..");
const USAGE = `usage: npm run load -- <${SCRIPTS.join("|")}> [--instances N] [--database-url URL] [k6 run arguments, e.g. -e DURATION=2m]`;

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`${name} must be a positive integer, got '${raw}'`);
  return Number(raw);
}

async function main(argv: string[]): Promise<number> {
  const [given, ...rest] = argv;
  // `smoke`, `smoke.js` and `load/smoke.js` all name the same script.
  const script = given?.replace(/^(\.\/)?(load\/)?/, "").replace(/\.js$/, "");
  if (!script || !(SCRIPTS as readonly string[]).includes(script)) {
    console.error(script ? `unknown load script '${script}'\n${USAGE}` : USAGE);
    return 2;
  }
  let parsed: RunnerArgs;
  try {
    parsed = runnerArgs(rest);
    requireMultiInstanceScript(script, parsed.instances);
  } catch (err) {
    console.error(`load: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const { instances, databaseUrl, k6Args } = parsed;
  const k6 = findK6(process.env, [workspaceK6(ROOT)]);
  if (!k6) {
    console.error(noK6Message(script));
    return EXIT_NO_K6;
  }
  const userEnv = envArgs(k6Args);
  const defaults = runDefaults(script, userEnv);
  const users = Math.max(positiveInt("LOAD_USERS", defaults.users), /^\d+$/.test(userEnv.VUS ?? "") ? Number(userEnv.VUS) : 0);
  const ratePerMinute = positiveInt("LOAD_RATE_PER_MINUTE", defaults.ratePerMinute);
  const ratePerDay = positiveInt("LOAD_RATE_PER_DAY", defaults.ratePerDay);

  const dir = mkdtempSync(join(tmpdir(), "graph-stats-load-"));
  const secret = randomBytes(24).toString("hex");
  const { command, note } = graphStatsCommand(ROOT, /^(1|true|yes)$/i.test(process.env.LOAD_FROM_SOURCE ?? ""));
  if (note) console.error(`load: ${note}`);
  let server: RunningInstances | null = null;
  const stopOnSignal = () => void server?.stop();
  process.on("SIGINT", stopOnSignal);
  process.on("SIGTERM", stopOnSignal);
  try {
    const dbPath = join(dir, "load.sqlite");
    try {
      server = await startInstances(instances, {
        command,
        dbPath,
        secret,
        ratePerMinute,
        ratePerDay,
        databaseUrl: databaseUrl ?? undefined,
      });
    } catch (err) {
      console.error(`load: ${(err as Error).message}`);
      return 4;
    }
    const tokensPath = join(dir, "tokens.json");
    writeFileSync(
      tokensPath,
      await mintTokens(command, dbPath, secret, users, `load-${Date.now().toString(36)}-`, databaseUrl ?? undefined),
    );
    // The database URL may hold a password: it is never printed.
    const store = databaseUrl ? "the given GRAPH_STATS_DATABASE_URL" : `one database file`;
    console.error(
      `load: graph-stats at ${server.baseUrls.join(", ")} on ${store} (limits ${ratePerMinute}/min, ${ratePerDay}/day), ${users} tokens in ${tokensPath}`,
    );
    // The summary JSON goes to a gitignored directory, not the caller's working directory.
    const outDir = resolve(process.env.LOAD_OUT_DIR || join(ROOT, "load", "out"));
    mkdirSync(outDir, { recursive: true });
    // Our own server: the full profile, graph-stats' exact forms (the caller's own `-e PROFILE=core` wins).
    const vars = {
      BASE_URL: server.baseUrls[0]!,
      BASE_URLS: server.baseUrls.join(","),
      TOKENS: tokensPath,
      JWT_SECRET: secret,
      PROFILE: "full",
      SUMMARY_DIR: outDir,
    };
    const proc = Bun.spawn([k6, ...k6RunArgs(join(ROOT, "load", `${script}.js`), vars, k6Args)], {
      stdio: ["inherit", "inherit", "inherit"],
    });
    return await proc.exited;
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(`load: ${(err as Error).message}`);
      process.exit(1);
    },
  );
}
