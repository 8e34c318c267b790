/** Starts the real graph-stats server for the kill test: the given binary, else GRAPH_STATS_BIN, else from source. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

const REPO_ROOT = resolve(import.meta.dir, "../..");

/**
 * Start `serve --port 0` with the given limits on a fresh database, or on `db` (a database file that
 * already holds the sample spares the server loading it: ~0.7 s of CPU); resolves once it listens.
 * `bin`: a compiled server (the tests pass theirs: it starts on a third of the CPU of `bun src/cli.ts`).
 */
export async function startServer(opts: {
  secret: string;
  perMinute: number;
  perDay: number;
  db?: string;
  bin?: string;
}): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), "gs-conformance-"));
  const bin = opts.bin ?? process.env.GRAPH_STATS_BIN;
  const cmd = bin ? [resolve(bin)] : [process.execPath, join(REPO_ROOT, "src/cli.ts")];
  const proc = Bun.spawn(
    [
      ...cmd,
      "serve",
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--db",
      opts.db ?? join(dir, "x.sqlite"),
      "--jwt-secret",
      opts.secret,
      "--rate-per-minute",
      String(opts.perMinute),
      "--rate-per-day",
      String(opts.perDay),
      "--log-level",
      "info",
    ],
    { cwd: REPO_ROOT, stdout: "pipe", stderr: "pipe" },
  );
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    const line = buffered.split("\n").find((l) => l.includes('"msg":"listening"'));
    const port = line ? (JSON.parse(line) as { port?: number }).port : undefined;
    if (port) {
      // Keep draining stdout so request logs never fill the pipe and stall the server.
      void (async () => {
        while (!(await reader.read()).done);
      })();
      return {
        url: `http://127.0.0.1:${port}`,
        async stop() {
          proc.kill("SIGTERM");
          await proc.exited;
          rmSync(dir, { recursive: true, force: true });
        },
      };
    }
  }
  proc.kill();
  const err = await new Response(proc.stderr).text();
  throw new Error(`server did not report listening within 30 s: ${err.slice(0, 500)} ${buffered.slice(0, 500)}`);
}
