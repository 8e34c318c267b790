import { describe, test, expect, beforeAll } from "bun:test";
import { SignJWT, UnsecuredJWT, generateKeyPair } from "jose";
import { TestClock } from "../clock.ts";
import { createVerifier, type VerifyResult } from "./verify-token.ts";
import { mintToken } from "./mint-token.ts";

const SECRET = "current-secret-for-tests-0123456789";
const OLD_SECRET = "previous-secret-for-tests-9876543210";
const T0 = Date.parse("2026-11-22T12:00:00Z");
const NOW_S = T0 / 1000;
const key = (s: string) => new TextEncoder().encode(s);
const b64 = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64url");

const clock = new TestClock(T0);
const verify = createVerifier({ secret: SECRET, previousSecrets: [OLD_SECRET], clock });

const claims = (over: Record<string, unknown> = {}) => ({
  sub: "alice",
  iat: NOW_S,
  exp: NOW_S + 3600,
  jti: crypto.randomUUID(),
  iss: "graph-stats",
  ...over,
});
const sign = (payload: Record<string, unknown>, secret = SECRET, alg = "HS256") =>
  new SignJWT(payload).setProtectedHeader({ alg, typ: "JWT" }).sign(key(secret));
/** An HMAC-SHA256 signature over an arbitrary protected header, as an attacker would craft it. */
async function hmacWithHeader(header: Record<string, unknown>, payload: Record<string, unknown>, secret = SECRET) {
  const input = `${b64(header)}.${b64(payload)}`;
  const k = await crypto.subtle.importKey("raw", key(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return `${input}.${Buffer.from(await crypto.subtle.sign("HMAC", k, key(input))).toString("base64url")}`;
}
const bearer = (t: string) => `Bearer ${t}`;
const failed = (r: VerifyResult) => (r.ok ? { ok: true } : { message: r.message, tokenSent: r.tokenSent });

let good: string;
beforeAll(async () => {
  good = (await mintToken({ secret: SECRET, userId: "alice", ttlSeconds: 3600, clock, email: "a@example.com" })).token;
});

describe("accepts", () => {
  test("a token minted here, returning its claims", async () => {
    const r = await verify(bearer(good));
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.claims.sub).toBe("alice");
      expect(r.claims.email).toBe("a@example.com");
      expect(r.claims.iss).toBe("graph-stats");
      expect(r.claims.exp - r.claims.iat!).toBe(3600);
    }
  });
  test.each(["bearer", "BEARER", "bEaReR"])("scheme word %s (case-insensitive)", async (scheme) => {
    expect((await verify(`${scheme} ${good}`)).ok).toBe(true);
  });
  test("a token signed with a previous secret (rotation)", async () => {
    expect((await verify(bearer(await sign(claims(), OLD_SECRET)))).ok).toBe(true);
  });
  test("iat and nbf in the future within the 60 s skew", async () => {
    expect((await verify(bearer(await sign(claims({ iat: NOW_S + 60, nbf: NOW_S + 60 }))))).ok).toBe(true);
  });
  test("a token without iss", async () => {
    const r = await verify(bearer(await sign(claims({ iss: undefined }))));
    expect(r.ok && r.claims.iss).toBe("graph-stats");
  });
});

describe("rejects with the documented message", () => {
  const cases: [string, () => Promise<string | null>, string, boolean][] = [
    ["no header", async () => null, "missing bearer token", false],
    ["empty header", async () => "", "missing bearer token", false],
    ["blank header", async () => "   ", "missing bearer token", false],
    ["Basic scheme", async () => "Basic YWxpY2U6cHc=", "malformed authorization header: expected 'Bearer <token>'", false],
    ["scheme word only", async () => "Bearer", "malformed authorization header: expected 'Bearer <token>'", false],
    ["token without scheme", async () => good, "malformed authorization header: expected 'Bearer <token>'", false],
    ["two tokens", async () => `Bearer ${good} ${good}`, "malformed authorization header: expected 'Bearer <token>'", true],
    ["tab separator", async () => `Bearer\t${good}`, "malformed authorization header: expected 'Bearer <token>'", true],
    ["two parts", async () => bearer("abc.def"), "malformed token", true],
    ["four parts", async () => bearer(`${good}.x`), "malformed token", true],
    ["non-base64url characters", async () => bearer("ab!c.def.ghi"), "malformed token", true],
    ["header not JSON", async () => bearer(`${b64("not json")}.${b64(claims())}.sig`), "malformed token", true],
    ["payload a JSON array", async () => bearer(`${b64({ alg: "HS256" })}.${b64([1, 2])}.sig`), "malformed token", true],
    ["alg none", async () => bearer(new UnsecuredJWT(claims()).encode()), "unsupported token algorithm", true],
    ["alg missing", async () => bearer(await hmacWithHeader({ typ: "JWT" }, claims())), "unsupported token algorithm", true],
    ["HS512", async () => bearer(await sign(claims(), SECRET, "HS512")), "unsupported token algorithm", true],
    [
      "RS256 header with an HMAC of the secret (key confusion)",
      async () => bearer(await hmacWithHeader({ alg: "RS256", typ: "JWT" }, claims())),
      "unsupported token algorithm",
      true,
    ],
    [
      "real RS256",
      async () => {
        const { privateKey } = await generateKeyPair("RS256");
        return bearer(await new SignJWT(claims()).setProtectedHeader({ alg: "RS256" }).sign(privateKey));
      },
      "unsupported token algorithm",
      true,
    ],
    [
      "a critical extension no verifier here understands, correctly signed",
      async () => bearer(await hmacWithHeader({ alg: "HS256", crit: ["exp"], exp: 1 }, claims())),
      "unsupported token algorithm",
      true,
    ],
    ["wrong secret", async () => bearer(await sign(claims(), "some-other-secret-entirely")), "invalid token signature", true],
    [
      "a signature one byte short",
      async () =>
        bearer(
          `${good.slice(0, good.lastIndexOf(".") + 1)}${Buffer.from(good.slice(good.lastIndexOf(".") + 1), "base64url")
            .subarray(0, 31)
            .toString("base64url")}`,
        ),
      "invalid token signature",
      true,
    ],
    [
      "payload changed after signing",
      async () => {
        const [h, , s] = good.split(".");
        return bearer(`${h}.${b64(claims({ sub: "mallory" }))}.${s}`);
      },
      "invalid token signature",
      true,
    ],
    ["empty signature", async () => bearer(`${good.split(".").slice(0, 2).join(".")}.`), "invalid token signature", true],
    [
      "expired token with a bad signature (signature is checked first)",
      async () => bearer(await sign(claims({ exp: NOW_S - 10 }), "wrong")),
      "invalid token signature",
      true,
    ],
    [
      "exp equal to now (no tolerance)",
      async () => bearer(await sign(claims({ exp: NOW_S }))),
      "token expired — generate a new token",
      true,
    ],
    [
      "exp in the past",
      async () => bearer(await sign(claims({ iat: NOW_S - 7200, exp: NOW_S - 1 }))),
      "token expired — generate a new token",
      true,
    ],
    ["iat 61 s in the future", async () => bearer(await sign(claims({ iat: NOW_S + 61 }))), "token not yet valid", true],
    ["nbf 61 s in the future", async () => bearer(await sign(claims({ nbf: NOW_S + 61 }))), "token not yet valid", true],
    ["no sub", async () => bearer(await sign(claims({ sub: undefined }))), "token missing required claim 'sub'", true],
    ["empty sub", async () => bearer(await sign(claims({ sub: "" }))), "token missing required claim 'sub'", true],
    [
      "no sub and expired (required claims first)",
      async () => bearer(await sign(claims({ sub: undefined, exp: NOW_S - 5 }))),
      "token missing required claim 'sub'",
      true,
    ],
    ["no exp", async () => bearer(await sign(claims({ exp: undefined }))), "token missing required claim 'exp'", true],
    ["iat that is not a number", async () => bearer(await sign(claims({ iat: "yesterday" }))), "malformed token", true],
    ["another issuer", async () => bearer(await sign(claims({ iss: "someone-else" }))), "token issuer not accepted", true],
  ];
  test.each(cases)("%s", async (_name, header, message, tokenSent) => {
    expect(failed(await verify(await header()))).toEqual({ message, tokenSent });
  });
});

describe("time", () => {
  test("a minted token is valid 1 ms before exp and expired at exp", async () => {
    const c = new TestClock(T0);
    const v = createVerifier({ secret: SECRET, clock: c });
    const t = await mintToken({ secret: SECRET, userId: "bob", ttlSeconds: 60, clock: c });
    c.set(t.exp * 1000 - 1);
    expect((await v(bearer(t.token))).ok).toBe(true);
    c.set(t.exp * 1000);
    expect(failed(await v(bearer(t.token)))).toEqual({ message: "token expired — generate a new token", tokenSent: true });
  });

  test("without the previous secret configured, a rotated-out token fails its signature", async () => {
    const v = createVerifier({ secret: SECRET, clock });
    expect(failed(await v(bearer(await sign(claims(), OLD_SECRET))))).toEqual({ message: "invalid token signature", tokenSent: true });
  });

  test("a custom issuer and skew are honoured", async () => {
    const v = createVerifier({ secret: SECRET, issuer: "acme", skewSeconds: 0, clock });
    expect((await v(bearer(await sign(claims({ iss: "acme" }))))).ok).toBe(true);
    expect(failed(await v(bearer(await sign(claims({ iss: "acme", iat: NOW_S + 1 })))))).toEqual({
      message: "token not yet valid",
      tokenSent: true,
    });
  });
});
