/**
 * The dashboard under test: a real server on a real port (in this process, with an injected
 * clock), signing users in at a real OpenID provider running in another process.
 */
import type { Subprocess } from "bun";
import { resolve } from "node:path";
import { TestClock } from "../../src/clock.ts";
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/logger.ts";
import { startServer, type RunningServer } from "../../src/server.ts";
import type { OpenedDb } from "../../db/sqlite/open.ts";
import { freePort } from "../support/free-port.ts";
import { sampleDb } from "../support/http/harness.ts";

export const SECRET = "dashboard-test-secret-0123456789abcdef";

export interface DashboardHarness {
  base: string;
  issuer: string;
  clock: TestClock;
  /** On a SQLite file, so `opened` is there. */
  server: RunningServer & { opened: OpenedDb };
  stop(): Promise<void>;
}

export async function startIdpProcess(
  clientId: string,
  clientSecret: string,
  redirectUri: string,
  extra: string[] = [],
): Promise<{ issuer: string; proc: Subprocess }> {
  const script = resolve(import.meta.dir, "../support/idp-process.ts");
  const proc = Bun.spawn([process.execPath, script, clientId, clientSecret, redirectUri, ...extra], { stdout: "pipe", stderr: "pipe" });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  const deadline = Date.now() + 20_000;
  while (!text.includes("\n")) {
    if (Date.now() > deadline) throw new Error("the identity provider did not start in 20 s");
    const { value, done } = await reader.read();
    if (done) throw new Error(`the identity provider exited: ${await new Response(proc.stderr as ReadableStream).text()}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { issuer: JSON.parse(text.split("\n")[0]!).issuer, proc };
}

/**
 * `idp`: ["userinfo-only"] for a provider that puts name and email only in userinfo. The provider
 * must know the redirect URI, so the server's port is chosen before either starts (free-port.ts).
 */
export async function startDashboard(overrides: Record<string, unknown> = {}, idp: string[] = []): Promise<DashboardHarness> {
  const port = freePort();
  const base = `http://127.0.0.1:${port}`;
  const clientSecret = crypto.randomUUID();
  const { issuer, proc } = await startIdpProcess("graph-stats-test", clientSecret, `${base}/auth/callback`, idp);
  const clock = new TestClock(Date.now());
  const config = loadConfig(
    {
      port: String(port),
      host: "127.0.0.1",
      db: sampleDb(), // a copy: loading the sample is the subject elsewhere (load-sample.test.ts)
      jwtSecret: SECRET,
      publicUrl: base,
      oidcIssuer: issuer,
      oidcClientId: "graph-stats-test",
      oidcClientSecret: clientSecret,
      ...overrides,
    },
    {},
  );
  const server = (await startServer(config, createLogger("silent"), { clock })) as RunningServer & { opened: OpenedDb };
  return {
    base,
    issuer,
    clock,
    server,
    async stop() {
      await server.stop();
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}
