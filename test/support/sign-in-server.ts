/**
 * The dashboard's sign-in under test without an identity provider: a real server in this process
 * (real port, SQLite file, injected clock, logs kept in memory) whose OpenID client is a stand-in.
 * For the callback's own rules (limits, single use, failures), where the provider's protocol is not
 * the subject; test/dashboard signs in at a real provider.
 */
import { openDatabase, type OpenedDb } from "../../db/sqlite/open.ts";
import { TestClock } from "../../src/clock.ts";
import { loadConfig } from "../../src/config.ts";
import type { OidcClient, PendingSignIn } from "../../src/dashboard/oidc-client.ts";
import { startServer, type RunningServer } from "../../src/server.ts";
import { captureLogger, type LoggedLine } from "./capture-logger.ts";
import { sampleDb, SECRET } from "./http/harness.ts";

export const STAND_IN_ISSUER = "https://idp.example";

/** An OpenID client that counts its code exchanges and signs in the user named by a code `good-<name>`. */
export interface StandInProvider extends OidcClient {
  /** Code exchanges asked for: each would be a call to the provider's token endpoint. */
  exchanges: number;
  /** Runs inside each exchange, before it answers (a test takes a database lock there). */
  duringExchange?: () => void | Promise<void>;
}

export function standInProvider(): StandInProvider {
  const provider: StandInProvider = {
    exchanges: 0,
    async begin() {
      const pending: PendingSignIn = { state: randomText(), nonce: randomText(), verifier: randomText() };
      return { url: `${STAND_IN_ISSUER}/authorize?state=${pending.state}`, pending };
    },
    async finish(callbackUrl, pending) {
      provider.exchanges++;
      await provider.duringExchange?.();
      const code = callbackUrl.searchParams.get("code") ?? "";
      if (callbackUrl.searchParams.get("state") !== pending.state || !code.startsWith("good-"))
        throw new Error("invalid_grant (stand-in provider)");
      const name = code.slice(5);
      return { issuer: STAND_IN_ISSUER, subject: name, email: `${name}@idp.example`, name };
    },
  };
  return provider;
}

export interface SignInServer {
  server: RunningServer & { opened: OpenedDb };
  base: string;
  clock: TestClock;
  logs: LoggedLine[];
  /** Through the app's handler (no socket, so no client address). */
  handle(path: string, init?: RequestInit): Promise<Response>;
  /** Over a socket from 127.0.0.1: a client on this host, or a proxy on it when the test sends X-Forwarded-For. */
  get(path: string, init?: RequestInit): Promise<Response>;
  /** Starts a sign-in (GET /auth/login): its cookie, and the state the provider would send back. */
  login(): Promise<{ cookie: string; state: string }>;
  /** Signs `name` in through the callback: the session cookie (`gs_session=…`) and its CSRF token. */
  signIn(name: string): Promise<{ cookie: string; csrf: string }>;
  /**
   * Locks the database for writing from another connection, the server waiting for no lock (its
   * next write is SQLITE_BUSY, as when another process holds the lock beyond the busy timeout); returns the release.
   */
  lock(): () => void;
  stop(): Promise<void>;
}

export interface SignInServerOptions {
  provider?: StandInProvider;
  /** A database file another server of the test also uses (two instances); a copy of the sample by default. */
  dbPath?: string;
  clock?: TestClock;
  /** Settings over the defaults, as loadConfig takes them (`trustedProxies: "127.0.0.1"`). */
  settings?: Record<string, unknown>;
}

export async function startSignInServer(o: SignInServerOptions = {}): Promise<SignInServer> {
  const clock = o.clock ?? new TestClock(Date.parse("2026-11-22T10:00:00Z"));
  const logger = captureLogger();
  const config = loadConfig(
    {
      port: "0",
      host: "127.0.0.1",
      db: o.dbPath ?? sampleDb(),
      jwtSecret: SECRET,
      defaultUniverse: "sample",
      sample: false,
      computeThreads: "0",
      ...o.settings,
    },
    {},
  );
  const server = (await startServer(config, logger, { clock, signIn: o.provider ?? standInProvider() })) as RunningServer & {
    opened: OpenedDb;
  };
  const base = `http://127.0.0.1:${server.port}`;
  // With Host, as a browser sends it: a page opened at another name is redirected to the canonical one.
  const handle = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has("host")) headers.set("host", new URL(base).host);
    return server.handle(new Request(base + path, { ...init, headers }));
  };
  const login = async () => {
    const res = await handle("/auth/login");
    if (res.status !== 302) throw new Error(`GET /auth/login answered ${res.status}`);
    const cookie = res.headers.get("set-cookie")!.split(";")[0]!;
    const state = new URL(res.headers.get("location")!).searchParams.get("state")!;
    return { cookie, state };
  };
  return {
    server,
    base,
    clock,
    logs: logger.lines,
    handle,
    get: (path, init = {}) => fetch(base + path, { redirect: "manual", ...init }),
    login,
    async signIn(name) {
      const { cookie: pending, state } = await login();
      const res = await handle(`/auth/callback?code=good-${name}&state=${state}`, { headers: { Cookie: pending } });
      const cookie = res.headers
        .getSetCookie()
        .find((c) => c.startsWith("gs_session="))
        ?.split(";")[0];
      if (res.status !== 303 || !cookie) throw new Error(`the callback answered ${res.status}`);
      const view = (await (await handle("/dashboard/api/state", { headers: { Cookie: cookie } })).json()) as { data: { csrf: string } };
      return { cookie, csrf: view.data.csrf };
    },
    lock() {
      server.opened.sqlite.exec("PRAGMA busy_timeout = 0");
      const holder = openDatabase(server.opened.path, { attach: true });
      holder.sqlite.exec("BEGIN IMMEDIATE");
      return () => {
        holder.sqlite.exec("ROLLBACK");
        holder.sqlite.close();
      };
    },
    stop: () => server.stop(),
  };
}

function randomText(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}
