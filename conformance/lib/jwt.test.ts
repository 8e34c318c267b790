import { describe, expect, test } from "bun:test";
import { errors, jwtVerify } from "jose";
import { decodeJwt, describeToken, fakeSignedJwt, signJwt, tamperSignature, unsignedJwt, userClaims } from "./jwt.ts";

const SECRET = "a-test-secret-of-enough-length";
const key = new TextEncoder().encode(SECRET);

describe("kit-minted tokens, verified by an independent implementation (jose)", () => {
  test("HS256 token with the documented claims verifies", async () => {
    const token = await signJwt(userClaims("alice"), SECRET);
    const { payload, protectedHeader } = await jwtVerify(token, key, { algorithms: ["HS256"], issuer: "graph-stats" });
    expect(protectedHeader).toEqual({ alg: "HS256", typ: "JWT" });
    expect(payload.sub).toBe("alice");
    expect(payload.exp! - payload.iat!).toBe(86400);
    expect(typeof payload.jti).toBe("string");
  });

  test("an expired token is expired, a future one is not yet valid by iat", async () => {
    const expired = await signJwt(userClaims("bob", { iatOffsetS: -2 * 86400 }), SECRET);
    await expect(jwtVerify(expired, key)).rejects.toBeInstanceOf(errors.JWTExpired);
    const future = decodeJwt(await signJwt(userClaims("bob", { iatOffsetS: 3600 }), SECRET))!;
    expect(future.payload.iat as number).toBeGreaterThan(Date.now() / 1000 + 3000);
  });

  test("HS512 verifies only under HS512", async () => {
    const token = await signJwt(userClaims("carol"), SECRET, "HS512");
    await expect(jwtVerify(token, key, { algorithms: ["HS512"] })).resolves.toBeDefined();
    await expect(jwtVerify(token, key, { algorithms: ["HS256"] })).rejects.toBeDefined();
  });

  test("a tampered signature and a wrong key fail verification", async () => {
    const token = await signJwt(userClaims("dave"), SECRET);
    for (let i = 0; i < 20; i++) {
      await expect(jwtVerify(tamperSignature(await signJwt(userClaims(`u${i}`), SECRET)), key)).rejects.toBeInstanceOf(
        errors.JWSSignatureVerificationFailed,
      );
    }
    await expect(jwtVerify(await signJwt(userClaims("dave"), "another-secret"), key)).rejects.toBeInstanceOf(
      errors.JWSSignatureVerificationFailed,
    );
    expect(tamperSignature(token)).not.toBe(token);
  });

  test("alg:none and fake RS256 tokens decode but never verify", async () => {
    const none = unsignedJwt(userClaims("eve"));
    expect(none.endsWith(".")).toBe(true);
    expect(decodeJwt(none)!.header.alg).toBe("none");
    await expect(jwtVerify(none, key)).rejects.toBeDefined();
    const rs = fakeSignedJwt(userClaims("eve"), "RS256");
    expect(decodeJwt(rs)!.header.alg).toBe("RS256");
    await expect(jwtVerify(rs, key)).rejects.toBeDefined();
  });
});

describe("decodeJwt / describeToken", () => {
  test("non-JWTs decode to undefined", () => {
    for (const s of ["", "abc", "a.b", "%%%.###.$$$", "a.b.c.d"]) expect(decodeJwt(s)).toBeUndefined();
  });

  test("evidence labels never contain the signature", async () => {
    const token = await signJwt(userClaims("frank"), SECRET);
    const label = describeToken(token);
    expect(label).toContain("sub=frank");
    expect(label).not.toContain(token.split(".")[2]!);
  });
});
