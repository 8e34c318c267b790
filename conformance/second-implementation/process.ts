/**
 * Starts the second implementation (server.py) as a process on a free port of 127.0.0.1, for the kit's
 * fairness test and the load scripts' (load/runner/fairness.ts).
 */
import { resolve } from "node:path";

const SERVER = resolve(import.meta.dir, "server.py");

/**
 * The interpreter itself, asked once: python3 on PATH may be a version manager's shell shim (pyenv's
 * costs ~0.15 s of CPU per start, and the kit's test starts eight servers). Null when there is none.
 */
export const PYTHON: string | null = (() => {
  const onPath = Bun.which("python3");
  if (!onPath) return null;
  return Bun.spawnSync([onPath, "-c", "import sys; print(sys.executable)"]).stdout.toString().trim() || onPath;
})();

export interface PyServer {
  url: string;
  /** SIGTERM; throws when the server did not exit 0 (it stops cleanly on SIGTERM). */
  stop(): Promise<void>;
}

export interface PyOptions {
  secret: string;
  perMinute: number;
  perDay: number;
  /** server.py's variant flags: --require-interval, --prefer-rate-limited, --no-openapi. */
  flags?: string[];
}

/** Start server.py on a free port; resolves with its address once it printed `listening on …`. */
export async function startSecondImplementation(opts: PyOptions): Promise<PyServer> {
  if (!PYTHON) throw new Error("python3 not found: the second implementation needs Python 3.8 or later");
  const proc = Bun.spawn(
    [
      PYTHON,
      SERVER,
      "--port",
      "0",
      "--secret",
      opts.secret,
      "--per-minute",
      String(opts.perMinute),
      "--per-day",
      String(opts.perDay),
      ...(opts.flags ?? []),
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  const reader = proc.stdout.getReader();
  let buffered = "";
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += new TextDecoder().decode(value);
    const m = /^listening on (http:\/\/\S+)\n/.exec(buffered);
    if (m)
      return {
        url: m[1]!,
        async stop() {
          proc.kill("SIGTERM");
          const code = await proc.exited;
          if (code !== 0) throw new Error(`server.py exited ${code} on SIGTERM: ${await new Response(proc.stderr).text()}`);
        },
      };
  }
  proc.kill();
  throw new Error(`server.py did not start: ${buffered} ${await new Response(proc.stderr).text()}`);
}
