/**
 * The sign-in callback under attack (issue #41 items 6-9): what a callback without a pending
 * sign-in costs, whose address the limit counts, single use across instances, a busy database,
 * and forged provider errors in the log. A stand-in provider counts the code exchanges.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { standInProvider, startSignInServer, type SignInServer } from "../../../test/support/sign-in-server.ts";

const running: SignInServer[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
});
const start = async (o: Parameters<typeof startSignInServer>[0] = {}) => {
  const s = await startSignInServer(o);
  running.push(s);
  return s;
};

/** GET /auth/callback for a sign-in started with `login`, with `code`, over `send` (handle or socket). */
const callback = (
  send: (path: string, init?: RequestInit) => Promise<Response>,
  login: { cookie: string; state: string } | null,
  code: string,
  headers: Record<string, string> = {},
) =>
  send(`/auth/callback?code=${code}&state=${login?.state ?? "y"}`, {
    headers: { ...headers, ...(login ? { Cookie: login.cookie } : {}) },
  });

describe("the callback limit (item 6)", () => {
  test("callbacks without a pending sign-in cost nothing: after 100 of them a real sign-in from the same address goes through", async () => {
    const s = await start();
    for (let i = 0; i < 100; i++) expect((await callback(s.get, null, "x")).status).toBe(400);
    const res = await callback(s.get, await s.login(), "good-alice");
    expect([res.status, res.headers.get("location")]).toEqual([303, "/dashboard"]);
  });

  test("behind a configured proxy the limit is per client: one client's 20 callbacks do not hold up another's", async () => {
    const s = await start({ settings: { trustedProxies: "127.0.0.1" } });
    const attacker = { "X-Forwarded-For": "203.0.113.9" };
    for (let i = 0; i < 20; i++) expect((await callback(s.get, await s.login(), "junk", attacker)).status).toBe(400);
    const refused = await callback(s.get, await s.login(), "junk", attacker);
    expect([refused.status, refused.headers.get("retry-after")]).toEqual([429, "60"]);
    const user = await callback(s.get, await s.login(), "good-bob", { "X-Forwarded-For": "198.51.100.7" });
    expect(user.status).toBe(303);
  });

  test("without a configured proxy X-Forwarded-For is not believed: a new value per callback does not escape the limit", async () => {
    const s = await start();
    for (let i = 0; i < 20; i++) await callback(s.get, await s.login(), "junk", { "X-Forwarded-For": `203.0.113.${i}` });
    const res = await callback(s.get, await s.login(), "junk", { "X-Forwarded-For": "203.0.113.99" });
    expect(res.status).toBe(429);
  });
});

describe("single use (item 7)", () => {
  test("a pending sign-in is consumed once for the deployment: replayed on a second instance it never reaches the provider", async () => {
    const provider = standInProvider();
    const a = await start({ provider });
    const b = await start({ provider, dbPath: a.server.opened.path });
    const login = await a.login();
    expect((await callback(a.handle, login, "good-carol")).status).toBe(303);
    const replay = await callback(b.handle, login, "good-carol");
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain("This sign-in was already used.");
    expect(provider.exchanges).toBe(1);
  });
});

describe("a busy database (item 8)", () => {
  test("busy before the exchange: a page that says to reload, nothing spent, and the reload signs in", async () => {
    const provider = standInProvider();
    const s = await start({ provider });
    const login = await s.login();
    const release = s.lock();
    let res: Response;
    try {
      res = await callback(s.handle, login, "good-dave");
    } finally {
      release();
    }
    expect([res.status, res.headers.get("content-type")]).toEqual([503, "text/html; charset=utf-8"]);
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
    const page = await res.text();
    expect(page).toContain("Reload this page in a few seconds");
    expect(page).not.toMatch(/SQLITE|database busy;|INSERT|stack/i);
    expect(res.headers.get("set-cookie")).toBeNull(); // the pending sign-in stays for the reload
    expect(provider.exchanges).toBe(0);
    expect((await callback(s.handle, login, "good-dave")).status).toBe(303);
  });

  test("busy after the exchange: a page that says to sign in again, and the sign-in is spent", async () => {
    const provider = standInProvider();
    const s = await start({ provider });
    const login = await s.login();
    let release = () => {};
    provider.duringExchange = () => {
      release = s.lock();
    };
    let res: Response;
    try {
      res = await callback(s.handle, login, "good-erin");
    } finally {
      release();
      provider.duringExchange = undefined;
    }
    expect([res.status, res.headers.get("content-type")]).toEqual([503, "text/html; charset=utf-8"]);
    expect(await res.text()).toContain("Sign in again in a few seconds");
    expect(res.headers.get("set-cookie")).toStartWith("gs_login=;");
    expect(await (await callback(s.handle, login, "good-erin")).text()).toContain("This sign-in was already used.");
    expect(provider.exchanges).toBe(1);
  });
});

describe("forged provider errors in the log (item 9)", () => {
  test("300 forged ?error= callbacks write one warning, then one line counting the rest of the minute", async () => {
    const s = await start();
    const forged = () => s.handle("/auth/callback?error=access_denied&error_description=forged");
    for (let i = 0; i < 300; i++) expect((await forged()).status).toBe(400);
    const refusals = () => s.logs.filter((l) => l.level === "warn" && l.msg === "the identity provider refused the sign-in");
    expect(refusals()).toHaveLength(1);
    expect(refusals()[0]).toMatchObject({ error: "access_denied", error_description: "forged" });
    s.clock.tick(60_000);
    await forged();
    expect(refusals().map((l) => l.repeated ?? 1)).toEqual([1, 299, 1]);
  });
});
