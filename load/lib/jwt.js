// JWT building without any crypto of its own: the caller injects base64url and HMAC, so k6 plugs in
// `k6/encoding` + `k6/crypto` and `bun test` plugs in node:crypto and checks the result with jose.

/**
 * @typedef {{ b64url: (text: string) => string,
 *   hmac: (alg: 'sha256' | 'sha512', secret: string, data: string) => string }} Signer
 *   `b64url` encodes a UTF-8 string as unpadded base64url; `hmac` returns the MAC as unpadded base64url.
 */

/** The issuer the service puts in (and expects of) its tokens. */
export const ISSUER = "graph-stats";

/**
 * Signs a JWT with HMAC. `alg` picks the hash: HS256 (the only one the service accepts) or HS512.
 * @param {Record<string, unknown>} header must contain `alg`
 * @param {Record<string, unknown>} claims
 * @param {string} secret
 * @param {Signer} signer
 * @returns {string}
 */
export function signJwt(header, claims, secret, signer) {
  const input = `${signer.b64url(JSON.stringify(header))}.${signer.b64url(JSON.stringify(claims))}`;
  if (header.alg === "none") return `${input}.`;
  const hash = header.alg === "HS512" ? "sha512" : "sha256";
  return `${input}.${signer.hmac(hash, secret, input)}`;
}

/**
 * The claims of a service token (docs/api.md § Tokens).
 * @param {{ sub: string, nowSec: number, ttlSec?: number, jti: string }} p
 * @returns {{ sub: string, iat: number, exp: number, jti: string, iss: string }}
 */
export function serviceClaims(p) {
  const ttl = p.ttlSec === undefined ? 86400 : p.ttlSec;
  return { sub: p.sub, iat: p.nowSec, exp: p.nowSec + ttl, jti: p.jti, iss: ISSUER };
}

/**
 * A valid HS256 service token, as `graph-stats token create` would mint it.
 * @param {string} secret
 * @param {{ sub: string, nowSec: number, ttlSec?: number, jti: string }} p
 * @param {Signer} signer
 * @returns {string}
 */
export function mintServiceToken(secret, p, signer) {
  return signJwt({ alg: "HS256", typ: "JWT" }, serviceClaims(p), secret, signer);
}

/**
 * @typedef {{ name: string, authorization: string | null, message: string, tokenSent: boolean, core: boolean }} BadTokenCase
 *   `authorization` null means no Authorization header; `message` is the exact 401 message (docs/api.md § Tokens);
 *   `tokenSent` says whether a bearer token was presented (a non-empty credential after `Bearer `), which
 *   decides whether the challenge carries `error="invalid_token"` (RFC 6750 §3.1); `core` whether any
 *   implementation must refuse it: no valid HS256 bearer JWT at all, or an expired one. A token issued in the
 *   future or without `sub` is correctly signed, and the interface does not say which claims are required.
 */

const MALFORMED_HEADER = "malformed authorization header: expected 'Bearer <token>'";

/**
 * The bad-credential cases of auth.js. Cases that need the real secret (expired, not yet valid, no `sub`,
 * wrong algorithm correctly signed) are only produced when `secret` is given, because with a wrong secret
 * the server would rightly answer "invalid token signature" instead; an expired token the deployment
 * issued (`expiredToken`) stands in for the minted one.
 * @param {{ nowSec: number, secret: string | null, validToken: string | null, runId: string, expiredToken?: string | null }} p
 * @param {Signer} signer
 * @returns {BadTokenCase[]}
 */
export function badTokenCases(p, signer) {
  const forgeSecret = `forged-${p.runId}-not-the-server-secret`;
  const claims = serviceClaims({ sub: `auth-abuse-${p.runId}`, nowSec: p.nowSec, jti: `auth-${p.runId}` });
  const hs256 = { alg: "HS256", typ: "JWT" };
  /** @type {BadTokenCase[]} */
  const cases = [
    { name: "missing", core: true, authorization: null, message: "missing bearer token", tokenSent: false },
    { name: "wrong-scheme", core: true, authorization: "Basic dXNlcjpwYXNz", message: MALFORMED_HEADER, tokenSent: false },
    { name: "scheme-only", core: true, authorization: "Bearer", message: MALFORMED_HEADER, tokenSent: false },
    { name: "two-tokens", core: true, authorization: "Bearer abc.def.ghi extra", message: MALFORMED_HEADER, tokenSent: true },
    { name: "not-a-jwt", core: true, authorization: "Bearer not-a-jwt", message: "malformed token", tokenSent: true },
    { name: "garbage-segments", core: true, authorization: "Bearer !!!.@@@.###", message: "malformed token", tokenSent: true },
    {
      name: "forged",
      core: true,
      authorization: `Bearer ${signJwt(hs256, claims, forgeSecret, signer)}`,
      message: "invalid token signature",
      tokenSent: true,
    },
    {
      name: "alg-none",
      core: true,
      authorization: `Bearer ${signJwt({ alg: "none", typ: "JWT" }, claims, "", signer)}`,
      message: "unsupported token algorithm",
      tokenSent: true,
    },
  ];
  if (p.validToken) {
    const parts = p.validToken.split(".");
    const tampered = signer.b64url(JSON.stringify(Object.assign({}, claims, { sub: "someone-else" })));
    cases.push({
      name: "tampered-payload",
      core: true,
      authorization: `Bearer ${parts[0]}.${tampered}.${parts[2]}`,
      message: "invalid token signature",
      tokenSent: true,
    });
  }
  if (p.secret) {
    const s = p.secret;
    cases.push(
      {
        name: "expired",
        core: true,
        authorization: `Bearer ${signJwt(hs256, Object.assign({}, claims, { iat: p.nowSec - 7200, exp: p.nowSec - 3600 }), s, signer)}`,
        message: "token expired — generate a new token",
        tokenSent: true,
      },
      {
        name: "not-yet-valid",
        core: false,
        authorization: `Bearer ${signJwt(hs256, Object.assign({}, claims, { iat: p.nowSec + 3600, exp: p.nowSec + 7200 }), s, signer)}`,
        message: "token not yet valid",
        tokenSent: true,
      },
      {
        name: "no-sub",
        core: false,
        authorization: `Bearer ${signJwt(hs256, { iat: p.nowSec, exp: p.nowSec + 3600, jti: claims.jti, iss: ISSUER }, s, signer)}`,
        message: "token missing required claim 'sub'",
        tokenSent: true,
      },
      {
        name: "hs512",
        core: true,
        authorization: `Bearer ${signJwt({ alg: "HS512", typ: "JWT" }, claims, s, signer)}`,
        message: "unsupported token algorithm",
        tokenSent: true,
      },
    );
  } else if (p.expiredToken) {
    cases.push({
      name: "expired",
      core: true,
      authorization: `Bearer ${p.expiredToken}`,
      message: "token expired — generate a new token",
      tokenSent: true,
    });
  }
  return cases;
}

/**
 * The cases a profile sends: all of them in `full`, those any implementation must refuse in `core`.
 * @param {BadTokenCase[]} cases
 * @param {import('./profile.js').Profile} profile
 * @returns {BadTokenCase[]}
 */
export function casesFor(cases, profile) {
  return profile === "full" ? cases : cases.filter((c) => c.core);
}
