/**
 * Starts the real program as a child process and waits for its "listening" log line: by default
 * the compiled binary of these sources (binary.ts, cached per source hash), as an operator runs it;
 * `source: true` runs `bun src/cli.ts`, where running from source is the subject. A serve from
 * the binary starts on ~0.3 s of CPU, from source ~0.9 s:
 * docs/tests.md § What a process costs.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Subprocess } from "bun";
import { serverBinary } from "../binary.ts";

export const CLI = resolve(import.meta.dir, "../../../src/cli.ts");

export interface ServerProcess {
  proc: Subprocess<"ignore", "pipe", "pipe">;
  port: number;
  base: string;
  logs: string[];
  /** Resolves once its output has been read to the end (it exited): `logs` then holds every line. */
  ended: Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number>;
}

export function command(bin?: string): string[] {
  return bin ? [bin] : [process.execPath, CLI];
}

/** Who runs: `bin` when given, else `bun src/cli.ts` with `source`, else the compiled binary. */
export interface Program {
  /** A program to run instead (another build, for before/after figures). */
  bin?: string;
  /** Run `bun src/cli.ts` (what `npm start` runs) instead of the compiled binary. */
  source?: boolean;
}

async function program({ bin, source }: Program): Promise<string[]> {
  if (bin) return [bin];
  return source ? command() : [await serverBinary()];
}

/** `listening` = how many "listening" lines to wait for (one per worker with --workers N). */
export async function spawnServer(
  args: string[],
  opts: Program & {
    env?: Record<string, string>;
    cwd?: string;
    timeoutMs?: number;
    listening?: number;
    /**
     * Benchmarks: the server's stdout goes to this file, as an operator's would, instead of a pipe
     * this process drains (reading it competed for the CPU, and a full pipe stalled the server).
     * `logs` then holds only the lines up to "listening".
     */
    logFile?: string;
  } = {},
): Promise<ServerProcess> {
  const proc = Bun.spawn([...(await program(opts)), "serve", "--host", "127.0.0.1", ...args], {
    env: { ...process.env, ...opts.env },
    cwd: opts.cwd,
    stdin: "ignore",
    stdout: opts.logFile ? Bun.file(opts.logFile) : "pipe",
    stderr: "pipe",
  });
  const source = opts.logFile ? fileChunks(opts.logFile, proc) : (proc.stdout as ReadableStream<Uint8Array>);
  const logs: string[] = [];
  let seen = 0;
  let readToEnd!: () => void;
  const ended = new Promise<void>((resolve) => (readToEnd = resolve));
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time; logs:\n${logs.join("\n")}`)), opts.timeoutMs ?? 30_000);
    (async () => {
      const decoder = new TextDecoder();
      let buf = "";
      let listening = false;
      for await (const chunk of source) {
        buf += decoder.decode(chunk);
        let nl: number;
        while ((nl = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          logs.push(line);
          try {
            const j = JSON.parse(line);
            if (j.msg === "listening" && ++seen === (opts.listening ?? 1)) {
              listening = true;
              clearTimeout(timer);
              resolvePort(j.port);
            }
          } catch {
            /* not JSON */
          }
        }
        if (listening && opts.logFile) return readToEnd();
      }
      readToEnd();
      clearTimeout(timer);
      reject(
        new Error(
          `server exited before listening (code ${await proc.exited}); stderr: ${await new Response(proc.stderr).text()}\n${logs.join("\n")}`,
        ),
      );
    })();
  });
  return {
    proc,
    port,
    base: `http://127.0.0.1:${port}`,
    logs,
    ended,
    async stop(signal = "SIGTERM") {
      proc.kill(signal);
      return proc.exited;
    },
  };
}

/** The bytes appended to a file, as they come, until `proc` exits. */
async function* fileChunks(path: string, proc: { exitCode: number | null }): AsyncGenerator<Uint8Array> {
  let offset = 0;
  for (;;) {
    const data = existsSync(path) ? readFileSync(path) : new Uint8Array(0);
    if (data.length > offset) {
      yield data.subarray(offset);
      offset = data.length;
    } else if (proc.exitCode !== null) {
      return;
    } else {
      await Bun.sleep(10);
    }
  }
}

/** Runs a CLI command to completion (the compiled binary unless `source` or `bin`). */
export async function runCli(args: string[], opts: Program & { env?: Record<string, string>; cwd?: string } = {}) {
  const proc = Bun.spawn([...(await program(opts)), ...args], {
    env: { ...process.env, ...opts.env },
    cwd: opts.cwd,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}
