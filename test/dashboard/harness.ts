/**
 * The dashboard under test: a real server on a real port (in this process, with an injected
 * clock), signing users in at a real OpenID provider running in another process; on a SQLite
 * file, or on a PostgreSQL of test/support/postgres.ts holding the sample (`startDashboardOn`).
 */
import { expect } from "bun:test";
import type { Subprocess } from "bun";
import { resolve } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { TestClock } from "../../src/clock.ts";
import { loadConfig } from "../../src/config.ts";
import { createLogger } from "../../src/logger.ts";
import { startServer, type RunningServer } from "../../src/server.ts";
import type { OpenedDb } from "../../db/sqlite/open.ts";
import { runCliInProcess } from "../support/cli-in-process.ts";
import { freePort } from "../support/free-port.ts";
import { sampleDb } from "../support/http/harness.ts";
import { startPostgres } from "../support/postgres.ts";

export const SECRET = "dashboard-test-secret-0123456789abcdef";

export interface DashboardHarness {
  base: string;
  issuer: string;
  clock: TestClock;
  /** On a SQLite file, so `opened` is there. */
  server: RunningServer & { opened: OpenedDb };
  /** The CLI run in this process on the server's database (`graph-stats user admin ada --on`). */
  cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  stop(): Promise<void>;
}

/** The same on either database: on PostgreSQL there is no SQLite file to reach into, so only the CLI. */
export type AnyDashboardHarness = Omit<DashboardHarness, "server"> & { server: RunningServer };

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
  const where = config.databaseUrl ? ["--database-url", config.databaseUrl] : ["--db", config.db];
  return {
    base,
    issuer,
    clock,
    server,
    cli: (...args) => runCliInProcess([...args, ...where], { USER: "test", GRAPH_STATS_JWT_SECRET: SECRET }),
    async stop() {
      await server.stop();
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** The dashboard on a SQLite file (as startDashboard) or on a fresh PostgreSQL database holding the sample. */
export async function startDashboardOn(kind: "sqlite" | "postgres"): Promise<AnyDashboardHarness> {
  if (kind === "sqlite") return startDashboard();
  const pgdb = await startPostgres({ sample: true });
  const h = await startDashboard({ databaseUrl: pgdb.url });
  return {
    ...h,
    async stop() {
      await h.stop();
      await pgdb.stop();
    },
  };
}

/**
 * A desktop window whose user prefers reduced motion, so the network is drawn at once (its entry
 * transition was about half of a page's CPU).
 */
export const PROFILE = { viewport: { width: 1280, height: 800 }, reducedMotion: "reduce" } as const;

/**
 * `name` signed in at the provider by HTTP, in a fresh browser profile: the same authorization-code
 * flow as clicking through (the server's /auth/login, the provider's sign-in form posted, its
 * redirects back to /auth/callback), with the profile's own cookies, but no page rendered on the
 * way: the tests that are about signing in click through; a page costs a Chromium renderer a few
 * seconds of CPU, so the rest open one only where they look at it (`openDashboard`). Returns the
 * context and the CSRF token the signed-in page carries.
 */
export async function signInByHttp(
  h: AnyDashboardHarness,
  browser: Browser,
  name: string,
): Promise<{ context: BrowserContext; csrf: string }> {
  const context = await browser.newContext(PROFILE);
  const form = await context.request.get(`${h.base}/auth/login`);
  expect(new URL(form.url()).origin).toBe(new URL(h.issuer).origin);
  const action = /<form method="post" action="([^"]+)"/.exec(await form.text())?.[1];
  expect(action).toBeDefined();
  const landed = await context.request.post(new URL(action!, form.url()).href, { form: { login: name } });
  expect(landed.url()).toBe(`${h.base}/dashboard`);
  const state = /<script type="application\/json" id="gs-state">([^<]*)<\/script>/.exec(await landed.text())?.[1];
  const signedIn = JSON.parse(state ?? "{}").signedIn;
  expect(signedIn?.user.name).toBe(name);
  expect(signedIn?.csrf).toBeString();
  return { context, csrf: signedIn.csrf };
}

/** The dashboard in a new page of `context` (`before` runs first), loaded signed in; CSP errors it logs are collected. */
export async function openDashboard(
  h: AnyDashboardHarness,
  context: BrowserContext,
  before?: (page: Page) => Promise<void>,
): Promise<{ page: Page; cspErrors: string[] }> {
  const page = await context.newPage();
  await before?.(page);
  const cspErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy|Refused to/i.test(m.text())) cspErrors.push(m.text());
  });
  await page.goto(`${h.base}/dashboard`);
  await page.getByRole("button", { name: "Sign out" }).waitFor();
  return { page, cspErrors };
}

/** The value `read` returns once `ok` accepts it (the page updates after a fetch), or the last one after 10 s. */
export async function settled<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > deadline) return v;
    await Bun.sleep(50);
  }
}
