/**
 * Starts graph-stats for a load run: a temporary database, 127.0.0.1 only, a random port, raised
 * limits, and tokens minted with the same CLI users would use.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

export interface ServerOptions {
  /** The program and leading arguments, e.g. `["dist/graph-stats"]` or `[bun, "src/cli.ts"]`. */
  command: string[];
  dbPath: string;
  secret: string;
  ratePerMinute: number;
  ratePerDay: number;
  /** How long to wait for the "listening" log line. */
  startTimeoutMs?: number;
  /** Forwarded as GRAPH_STATS_DATABASE_URL (a shared PostgreSQL), for servers that support it. */
  databaseUrl?: string;
}

export interface RunningServer {
  baseUrl: string;
  port: number;
  pid: number;
  /** SIGTERM, then SIGKILL if it has not exited within 10 s. */
  stop(): Promise<void>;
}

/**
 * The compiled binary when it exists, else the source entry run by this Bun (with a note why). With
 * `fromSource` (the runner's LOAD_FROM_SOURCE=1) always the source: a dist/ older than the tree measures
 * the old server.
 */
export function graphStatsCommand(root: string, fromSource = false): { command: string[]; note: string | null } {
  const binary = join(root, "dist", "graph-stats");
  if (fromSource) return { command: [process.execPath, join(root, "src", "cli.ts")], note: "LOAD_FROM_SOURCE: running src/cli.ts" };
  if (existsSync(binary)) return { command: [binary], note: null };
  return {
    command: [process.execPath, join(root, "src", "cli.ts")],
    note: `dist/graph-stats not found (build it with 'npm run build'); running from source instead`,
  };
}

/** Starts `serve` and resolves once it logs `{"msg":"listening","port":N}`. */
export async function startServer(o: ServerOptions): Promise<RunningServer> {
  const proc = Bun.spawn(
    [
      ...o.command,
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--db",
      o.dbPath,
      "--jwt-secret",
      o.secret,
      "--rate-per-minute",
      String(o.ratePerMinute),
      "--rate-per-day",
      String(o.ratePerDay),
    ],
    { stdout: "pipe", stderr: "pipe", env: serverEnv(o.secret, o.databaseUrl) },
  );
  const stderr = new Response(proc.stderr).text();
  const stop = async (): Promise<void> => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill("SIGTERM");
    const killer = setTimeout(() => proc.kill("SIGKILL"), 10_000);
    await proc.exited;
    clearTimeout(killer);
  };
  try {
    const port = await listeningPort(proc.stdout, o.startTimeoutMs ?? 60_000);
    return { baseUrl: `http://127.0.0.1:${port}`, port, pid: proc.pid, stop };
  } catch (err) {
    await stop();
    const tail = (await stderr).trim().split("\n").slice(-5).join("\n");
    throw new Error(`graph-stats did not start: ${(err as Error).message}${tail ? `\n${tail}` : ""}`);
  }
}

/** Reads JSON log lines until the listening line; keeps draining stdout afterwards so the pipe never fills. */
async function listeningPort(stdout: ReadableStream<Uint8Array>, timeoutMs: number): Promise<number> {
  const reader = stdout.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const timer = new Promise<null>((r) => setTimeout(() => r(null), Math.max(1, deadline - Date.now())));
    const chunk = await Promise.race([reader.read(), timer]);
    if (chunk === null) break;
    if (chunk.done) throw new Error("it exited before listening");
    buffered += decoder.decode(chunk.value, { stream: true });
    let nl: number;
    while ((nl = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const port = portOf(line);
      if (port !== null) {
        void drain(reader);
        return port;
      }
    }
  }
  throw new Error(`no "listening" log line within ${timeoutMs} ms`);
}

async function drain(reader: { read(): Promise<{ done: boolean }> }): Promise<void> {
  try {
    while (!(await reader.read()).done) {}
  } catch {
    // The server is gone; nothing left to drain.
  }
}

/** The port of a `{"msg":"listening","port":N}` log line, else null. */
export function portOf(line: string): number | null {
  try {
    const v = JSON.parse(line);
    return v && v.msg === "listening" && Number.isInteger(v.port) && v.port > 0 ? v.port : null;
  } catch {
    return null;
  }
}

/** The environment of a graph-stats process: the secret, and the database URL when one is given. */
function serverEnv(secret: string, databaseUrl: string | undefined): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, GRAPH_STATS_JWT_SECRET: secret };
  if (databaseUrl) env.GRAPH_STATS_DATABASE_URL = databaseUrl;
  return env;
}

/** Runs `token create --users N --json` against the run's database and returns its JSON text. */
export async function mintTokens(
  command: string[],
  dbPath: string,
  secret: string,
  users: number,
  prefix: string,
  databaseUrl?: string,
): Promise<string> {
  const proc = Bun.spawn([...command, "token", "create", "--db", dbPath, "--users", String(users), "--prefix", prefix, "--json"], {
    stdout: "pipe",
    stderr: "pipe",
    env: serverEnv(secret, databaseUrl),
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`token create failed (exit ${code}): ${err.trim()}`);
  const list = JSON.parse(out);
  if (!Array.isArray(list) || list.length !== users)
    throw new Error(`token create returned ${Array.isArray(list) ? list.length : "no"} tokens, expected ${users}`);
  return out;
}
