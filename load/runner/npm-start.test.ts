// `npm start` for real: npm runs the script through `sh -c`, and a signal sent to npm must reach the
// server rather than leave it running as an orphan holding the port (issue #12 item 12).
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";

const ROOT = resolve(import.meta.dir, "../..");
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** True when 127.0.0.1:port can be bound, i.e. no process (orphan or not) still listens on it. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((res) => {
    const s = createServer();
    s.once("error", () => res(false));
    s.listen(port, "127.0.0.1", () => s.close(() => res(true)));
  });
}

/** The server's JSON log lines as they come (drained to the end, so the server never blocks on a full pipe). */
function logLines(stdout: ReadableStream<Uint8Array>): { lines: Record<string, unknown>[]; text: () => string } {
  const lines: Record<string, unknown>[] = [];
  let text = "";
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = "";
    try {
      for await (const chunk of stdout) {
        const piece = decoder.decode(chunk, { stream: true });
        text += piece;
        buffered += piece;
        let nl: number;
        while ((nl = buffered.indexOf("\n")) >= 0) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          try {
            lines.push(JSON.parse(line));
          } catch {
            // Not JSON (npm's own output).
          }
        }
      }
    } catch {}
  })();
  return { lines, text: () => text };
}

/** The first log line `pick` accepts, polled until `timeoutMs`. */
async function logged<T>(
  log: ReturnType<typeof logLines>,
  pick: (line: Record<string, unknown>) => T | undefined,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const line of log.lines) {
      const v = pick(line);
      if (v !== undefined) return v;
    }
    if (Date.now() > deadline)
      throw new Error(`npm start did not log what was waited for within ${timeoutMs} ms; output so far:\n${log.text().slice(-2000)}`);
    await Bun.sleep(25);
  }
}

/** True once something answers HTTP at `url` (any status), false if nothing does before the deadline. */
async function answersWithin(url: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      await fetch(url);
      return true;
    } catch {
      await Bun.sleep(100);
    }
  }
  return false;
}

async function startAndSignal(signal: "SIGTERM" | "SIGINT") {
  const dir = mkdtempSync(join(tmpdir(), "gs-npm-start-"));
  // Port 0 for both: the system picks them (a port probed free here could be taken before the server binds it).
  const npm = Bun.spawn(["npm", "start", "--silent"], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      ...process.env,
      GRAPH_STATS_HOST: "127.0.0.1",
      GRAPH_STATS_PORT: "0",
      GRAPH_STATS_DB: join(dir, "db.sqlite"),
      GRAPH_STATS_JWT_SECRET: randomBytes(24).toString("hex"),
    },
  });
  let pid = 0;
  cleanups.push(() => {
    // Only the processes this test started: npm and the server it launched.
    if (pid && alive(pid)) process.kill(pid, "SIGKILL");
    if (npm.exitCode === null && npm.signalCode === null) npm.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });
  const log = logLines(npm.stdout);
  const listening = await logged(log, (l) => (l.msg === "listening" && Number.isInteger(l.pid) ? l : undefined), 60_000);
  pid = listening.pid as number;
  const port = listening.port as number;
  expect(pid).not.toBe(npm.pid);
  expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  // With `serve --dev` the server also runs an identity provider on its own port, which must go too.
  const script = JSON.parse(await Bun.file(join(ROOT, "package.json")).text()).scripts.start as string;
  const dev = /\s--dev\b/.test(script);
  const idpPort = dev
    ? await logged(log, (l) => (typeof l.issuer === "string" ? Number(new URL(l.issuer).port) : undefined), 10_000)
    : undefined;
  if (idpPort !== undefined) expect(await answersWithin(`http://127.0.0.1:${idpPort}/.well-known/openid-configuration`, 10_000)).toBe(true);

  npm.kill(signal);
  const npmExit = await Promise.race([npm.exited.then(() => "exited"), Bun.sleep(15_000).then(() => "still running")]);
  // npm waits for its child before exiting, so once npm is gone the server must be gone too.
  const deadline = Date.now() + 5_000;
  while (alive(pid) && Date.now() < deadline) await Bun.sleep(50);
  return {
    npmExit,
    serverAlive: alive(pid),
    portFree: await portIsFree(port),
    idpPortFree: idpPort === undefined || (await portIsFree(idpPort)),
  };
}

describe("npm start", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    test(`${signal} to npm stops the server and frees its port`, async () => {
      expect(await startAndSignal(signal)).toEqual({ npmExit: "exited", serverAlive: false, portFree: true, idpPortFree: true });
    }, 60_000);
  }
});
