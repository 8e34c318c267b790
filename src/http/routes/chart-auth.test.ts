import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SignJWT } from "jose";
import { mintToken, sqliteAuthStoreOf } from "../../auth/index.ts";
import { body, SECRET, startHarness, type Harness } from "../../../test/support/http/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

const PATH = "/v1/graph-stats/chart?lookback=20";
const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");

async function signed(claims: Record<string, unknown>, secret = SECRET, alg = "HS256") {
  return new SignJWT(claims).setProtectedHeader({ alg, typ: "JWT" }).sign(new TextEncoder().encode(secret));
}

function nowS() {
  return Math.floor(h.clock.now() / 1000);
}

async function expect401(res: Response, message: string, tokenSent: boolean) {
  expect(res.status).toBe(401);
  const b = await body(res);
  expect(b).toMatchObject({ success: false, data: null, errors: [{ code: "UNAUTHORIZED", message }] });
  expect(b.meta.generated_at).toBeString();
  const challenge = res.headers.get("www-authenticate")!;
  expect(challenge).toStartWith('Bearer realm="graph-stats"');
  if (tokenSent) expect(challenge).toContain('error="invalid_token"');
  else expect(challenge).not.toContain("error=");
  // a 401 is never metered: no user is known, so no rate-limit headers
  expect(res.headers.get("x-ratelimit-limit")).toBeNull();
}

describe("401 UNAUTHORIZED, one distinct message per cause (docs/api.md § Tokens)", () => {
  test("missing bearer token", async () => {
    await expect401(await h.get(PATH), "missing bearer token", false);
  });
  test("wrong scheme and two tokens are malformed headers", async () => {
    const msg = "malformed authorization header: expected 'Bearer <token>'";
    // RFC 6750 §3.1: another scheme means no bearer token was attempted, so no error code.
    await expect401(await h.get(PATH, { headers: { Authorization: "Basic dXNlcjpwYXNz" } }), msg, false);
    const t = await h.token("u1");
    await expect401(await h.get(PATH, { headers: { Authorization: `Bearer ${t} ${t}` } }), msg, true);
  });
  test("the scheme word is case-insensitive", async () => {
    const t = await h.token("scheme-user");
    expect((await h.get(PATH, { headers: { Authorization: `bEaReR ${t}` } })).status).toBe(200);
  });
  test("malformed token", async () => {
    await expect401(await h.get(PATH, { token: "not-a-jwt" }), "malformed token", true);
  });
  test("alg none, RS256 and HS512 are unsupported algorithms", async () => {
    const claims = { sub: "x", iat: nowS(), exp: nowS() + 600, jti: "j1" };
    const none = `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`;
    await expect401(await h.get(PATH, { token: none }), "unsupported token algorithm", true);
    const rs = `${b64({ alg: "RS256", typ: "JWT" })}.${b64(claims)}.${Buffer.from("sig").toString("base64url")}`;
    await expect401(await h.get(PATH, { token: rs }), "unsupported token algorithm", true);
    await expect401(await h.get(PATH, { token: await signed(claims, SECRET, "HS512") }), "unsupported token algorithm", true);
  });
  test("invalid token signature (another secret)", async () => {
    const t = await signed({ sub: "x", iat: nowS(), exp: nowS() + 600, jti: "j2" }, "another-secret-another-secret-000");
    await expect401(await h.get(PATH, { token: t }), "invalid token signature", true);
  });
  test("expired: the message says so", async () => {
    const t = await signed({ sub: "x", iat: nowS() - 90_000, exp: nowS() - 3600, jti: "j3" });
    await expect401(await h.get(PATH, { token: t }), "token expired — generate a new token", true);
    const res = await h.get(PATH, { token: t });
    expect(res.headers.get("www-authenticate")).toContain('error_description="token expired - generate a new token"');
  });
  test("a 24 h token expires exactly 24 h later (exp ≤ now is expired)", async () => {
    const t = await h.token("ttl-user");
    h.clock.tick(86_400_000 - 1000);
    expect((await h.get(PATH, { token: t })).status).toBe(200);
    h.clock.tick(1000);
    await expect401(await h.get(PATH, { token: t }), "token expired — generate a new token", true);
    h.clock.tick(-86_400_000);
  });
  test("not yet valid: iat or nbf beyond 60 s skew", async () => {
    const future = await signed({ sub: "x", iat: nowS() + 120, exp: nowS() + 3600, jti: "j4" });
    await expect401(await h.get(PATH, { token: future }), "token not yet valid", true);
    const nbf = await signed({ sub: "x", iat: nowS(), nbf: nowS() + 300, exp: nowS() + 3600, jti: "j5" });
    await expect401(await h.get(PATH, { token: nbf }), "token not yet valid", true);
    const within = await signed({ sub: "skew-user", iat: nowS() + 30, exp: nowS() + 3600, jti: "j6" });
    expect((await h.get(PATH, { token: within })).status).toBe(200);
  });
  test("missing sub", async () => {
    const t = await signed({ iat: nowS(), exp: nowS() + 600, jti: "j7" });
    await expect401(await h.get(PATH, { token: t }), "token missing required claim 'sub'", true);
  });
  test("revoked jti, of a token minted elsewhere (no row of its own)", async () => {
    const minted = await mintToken({ secret: SECRET, userId: "revoked-user", ttlSeconds: 3600, clock: h.clock });
    expect((await h.get(PATH, { token: minted.token })).status).toBe(200);
    expect(await sqliteAuthStoreOf(h.server.opened.sqlite).revokeToken(minted.jti, h.clock.now())).toBe("revoked-unknown-jti");
    await expect401(await h.get(PATH, { token: minted.token }), "token revoked", true);
  });
  test("revoked jti of a known user (read with the user in one statement), and a sibling token still works", async () => {
    const store = sqliteAuthStoreOf(h.server.opened.sqlite);
    const [a, b] = await Promise.all(
      [0, 1].map(() => mintToken({ secret: SECRET, userId: "known-revoked", ttlSeconds: 3600, clock: h.clock })),
    );
    const rows = [a!, b!].map((t) => ({ jti: t.jti, userId: "known-revoked", issuedAt: t.iat * 1000, expiresAt: t.exp * 1000 }));
    await store.issueTokens(rows, { now: h.clock.now() });
    expect(await store.getUser("known-revoked")).not.toBeNull();
    await store.revokeToken(a!.jti, h.clock.now());
    await expect401(await h.get(PATH, { token: a!.token }), "token revoked", true);
    expect((await h.get(PATH, { token: b!.token })).status).toBe(200);
  });
});

describe("403 and users", () => {
  test("a valid token of a disabled user gets 403 FORBIDDEN", async () => {
    const auth = sqliteAuthStoreOf(h.server.opened.sqlite);
    await auth.createUser({ id: "dora", now: h.clock.now() });
    await auth.setDisabled("dora", true);
    const res = await h.get(PATH, { token: await h.token("dora") });
    expect(res.status).toBe(403);
    expect((await body(res)).errors[0].code).toBe("FORBIDDEN");
  });
  test("a first-time user's 503 (the meter locked by another connection) carries the defaults, everything remaining", async () => {
    const token = await h.token("locked-out-newcomer");
    const other = new Database(h.server.opened.path);
    other.exec("BEGIN IMMEDIATE");
    try {
      const res = await h.get(PATH, { token });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).not.toBeNull();
      expect(res.headers.get("x-ratelimit-limit")).toBe("1");
      expect(res.headers.get("x-ratelimit-remaining")).toBe("1");
      expect(res.headers.get("x-ratelimit-daily-remaining")).toBe("30");
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
  });

  test("a valid token for an unknown sub creates the user on first use (written just after the answer, off the request path)", async () => {
    const res = await h.get(PATH, { token: await h.token("newcomer", { email: "n@example.com" }) });
    expect(res.status).toBe(200);
    const read = () => h.server.opened.sqlite.query("SELECT id, email FROM users WHERE id = 'newcomer'").get();
    for (let i = 0; i < 50 && read() === null; i++) await Bun.sleep(20);
    const row = read();
    expect(row).toEqual({ id: "newcomer", email: "n@example.com" });
  });
});
