import { describe, expect, test } from "bun:test";
import { createHmac } from "node:crypto";
import { decodeProtectedHeader, errors, jwtVerify } from "jose";
import { badTokenCases, casesFor, mintServiceToken, signJwt, type Signer } from "./jwt.js";

// The same contract k6's encoding.b64encode(s, 'rawurl') and crypto.hmac(alg, secret, data, 'base64rawurl') fulfil.
const nodeSigner: Signer = {
  b64url: (text) => Buffer.from(text, "utf8").toString("base64url"),
  hmac: (alg, secret, data) => createHmac(alg, secret).update(data).digest("base64url"),
};
const SECRET = "load-test-secret-0123456789abcdef";
const key = new TextEncoder().encode(SECRET);
const NOW = Math.floor(Date.now() / 1000);

describe("mintServiceToken", () => {
  test("jose accepts it as an HS256 graph-stats token with the service claims", async () => {
    const token = mintServiceToken(SECRET, { sub: "load-1", nowSec: NOW, jti: "j1" }, nodeSigner);
    const { payload, protectedHeader } = await jwtVerify(token, key, { algorithms: ["HS256"], issuer: "graph-stats" });
    expect(protectedHeader).toEqual({ alg: "HS256", typ: "JWT" });
    expect(payload).toEqual({ sub: "load-1", iat: NOW, exp: NOW + 86400, jti: "j1", iss: "graph-stats" });
  });
  test("non-ASCII claims survive base64url (UTF-8)", async () => {
    const token = signJwt({ alg: "HS256", typ: "JWT" }, { sub: "zoë—user", exp: NOW + 60 }, SECRET, nodeSigner);
    expect((await jwtVerify(token, key)).payload.sub).toBe("zoë—user");
  });
});

describe("badTokenCases", () => {
  const valid = mintServiceToken(SECRET, { sub: "load-1", nowSec: NOW, jti: "j1" }, nodeSigner);
  const cases = badTokenCases({ nowSec: NOW, secret: SECRET, validToken: valid, runId: "r1" }, nodeSigner);
  const byName = Object.fromEntries(cases.map((c) => [c.name, c]));
  const tokenOf = (name: string) => String(byName[name].authorization).slice("Bearer ".length);

  test("without the secret only the cases that need no secret are produced", () => {
    const names = badTokenCases({ nowSec: NOW, secret: null, validToken: null, runId: "r1" }, nodeSigner).map((c) => c.name);
    expect(names).toEqual(["missing", "wrong-scheme", "scheme-only", "two-tokens", "not-a-jwt", "garbage-segments", "forged", "alg-none"]);
    expect(cases.length).toBe(13);
  });
  test("the forged and tampered tokens fail jose's signature check", async () => {
    for (const name of ["forged", "tampered-payload"]) {
      await expect(jwtVerify(tokenOf(name), key, { algorithms: ["HS256"] })).rejects.toBeInstanceOf(errors.JWSSignatureVerificationFailed);
    }
  });
  test("the expired token is correctly signed but expired", async () => {
    await expect(jwtVerify(tokenOf("expired"), key, { algorithms: ["HS256"] })).rejects.toBeInstanceOf(errors.JWTExpired);
  });
  test("the not-yet-valid token has iat an hour ahead", async () => {
    await expect(jwtVerify(tokenOf("not-yet-valid"), key, { algorithms: ["HS256"], maxTokenAge: "2h" })).rejects.toBeInstanceOf(
      errors.JWTClaimValidationFailed,
    );
  });
  test("the no-sub token verifies but has no sub", async () => {
    expect((await jwtVerify(tokenOf("no-sub"), key, { algorithms: ["HS256"] })).payload.sub).toBeUndefined();
  });
  test("HS512 and alg none are refused when only HS256 is allowed", async () => {
    expect(decodeProtectedHeader(tokenOf("hs512")).alg).toBe("HS512");
    await expect(jwtVerify(tokenOf("hs512"), key, { algorithms: ["HS256"] })).rejects.toBeInstanceOf(errors.JOSEAlgNotAllowed);
    expect(decodeProtectedHeader(tokenOf("alg-none")).alg).toBe("none");
    expect(tokenOf("alg-none").endsWith(".")).toBe(true);
  });
  test("every case carries the exact message of docs/api.md § Tokens", () => {
    expect(byName.missing).toEqual({ name: "missing", core: true, authorization: null, message: "missing bearer token", tokenSent: false });
    expect(cases.filter((c) => !c.tokenSent).map((c) => c.name)).toEqual(["missing", "wrong-scheme", "scheme-only"]);
    expect(byName["wrong-scheme"].message).toBe("malformed authorization header: expected 'Bearer <token>'");
    expect(byName.expired.message).toBe("token expired — generate a new token");
    expect(byName["no-sub"].message).toBe("token missing required claim 'sub'");
  });
  test("core sends what any implementation must refuse; a future or sub-less token is correctly signed, so full only", () => {
    expect(casesFor(cases, "full")).toEqual(cases);
    expect(cases.filter((c) => !c.core).map((c) => c.name)).toEqual(["not-yet-valid", "no-sub"]);
    expect(casesFor(cases, "core").map((c) => c.name)).not.toContain("no-sub");
  });
  test("an expired token the deployment issued stands in for the minted one, without the secret", () => {
    const given = badTokenCases({ nowSec: 1, secret: null, validToken: null, runId: "r", expiredToken: "a.b.c" }, nodeSigner);
    expect(given.filter((c) => c.name === "expired")).toEqual([
      { name: "expired", core: true, authorization: "Bearer a.b.c", message: "token expired — generate a new token", tokenSent: true },
    ]);
    expect(badTokenCases({ nowSec: 1, secret: null, validToken: null, runId: "r" }, nodeSigner).map((c) => c.name)).not.toContain(
      "expired",
    );
  });
});
