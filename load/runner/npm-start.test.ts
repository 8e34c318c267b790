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

/** A port nothing listens on right now (the kernel picks it, we release it). */
function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/** True when 127.0.0.1:port can be bound, i.e. no process (orphan or not) still listens on it. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((res) => {
    const s = createServer();
    s.once("error", () => res(false));
    s.listen(port, "127.0.0.1", () => s.close(() => res(true)));
  });
}

/** Reads the server's JSON log until its `listening` line and returns the server's own pid from it. */
async function serverPid(stdout: ReadableStream<Uint8Array>, timeoutMs: number): Promise<number> {
  const reader = stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const timer = new Promise<null>((r) => setTimeout(() => r(null), Math.max(1, deadline - Date.now())));
    const chunk = await Promise.race([reader.read(), timer]);
    if (chunk === null || chunk.done) break;
    text += decoder.decode(chunk.value, { stream: true });
    for (const line of text.split("\n")) {
      try {
        const v = JSON.parse(line);
        if (v.msg === "listening" && Number.isInteger(v.pid)) {
          // Keep draining so the server never blocks on a full pipe.
          void (async () => {
            try {
              while (!(await reader.read()).done) {}
            } catch {}
          })();
          return v.pid;
        }
      } catch {
        // Not a complete JSON line yet.
      }
    }
  }
  throw new Error(`npm start did not log "listening" within ${timeoutMs} ms; output so far:\n${text.slice(-2000)}`);
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
  const [port, idpPort] = [await freePort(), await freePort()];
  const npm = Bun.spawn(["npm", "start", "--silent"], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      ...process.env,
      GRAPH_STATS_HOST: "127.0.0.1",
      GRAPH_STATS_PORT: String(port),
      GRAPH_STATS_DEV_IDP_PORT: String(idpPort),
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
  pid = await serverPid(npm.stdout, 60_000);
  expect(pid).not.toBe(npm.pid);
  expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
  // With `serve --dev` the server also runs an identity provider on its own port, which must go too.
  const script = JSON.parse(await Bun.file(join(ROOT, "package.json")).text()).scripts.start as string;
  if (/\s--dev\b/.test(script))
    expect(await answersWithin(`http://127.0.0.1:${idpPort}/.well-known/openid-configuration`, 10_000)).toBe(true);

  npm.kill(signal);
  const npmExit = await Promise.race([npm.exited.then(() => "exited"), Bun.sleep(15_000).then(() => "still running")]);
  // npm waits for its child before exiting, so once npm is gone the server must be gone too.
  const deadline = Date.now() + 5_000;
  while (alive(pid) && Date.now() < deadline) await Bun.sleep(50);
  return { npmExit, serverAlive: alive(pid), portFree: await portIsFree(port), idpPortFree: await portIsFree(idpPort) };
}

describe("npm start", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    test(`${signal} to npm stops the server and frees its port`, async () => {
      expect(await startAndSignal(signal)).toEqual({ npmExit: "exited", serverAlive: false, portFree: true, idpPortFree: true });
    }, 60_000);
  }
});
