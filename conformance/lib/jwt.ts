/** Minimal JWT handling for the kit: mint HS256/HS512 tokens with Web Crypto, decode, and build invalid variants. */

const encoder = new TextEncoder();

/** Base64url without padding (RFC 7515 §2). */
export function base64url(data: Uint8Array | string): string {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  return Buffer.from(bytes).toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeSegment(segment: string): unknown {
  return JSON.parse(Buffer.from(segment.replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("utf8"));
}

export type JwtClaims = Record<string, unknown>;

/** Sign `header.payload` with HMAC; `alg` selects the hash. */
export async function hmacSign(input: string, secret: string, alg: "HS256" | "HS512" = "HS256"): Promise<string> {
  const hash = alg === "HS256" ? "SHA-256" : "SHA-512";
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash }, false, ["sign"]);
  const sig = await crypto.subtle.sign("HMAC", key, encoder.encode(input));
  return base64url(new Uint8Array(sig));
}

/** A signed JWT with the given header algorithm and claims. */
export async function signJwt(claims: JwtClaims, secret: string, alg: "HS256" | "HS512" = "HS256"): Promise<string> {
  const input = `${base64url(JSON.stringify({ alg, typ: "JWT" }))}.${base64url(JSON.stringify(claims))}`;
  return `${input}.${await hmacSign(input, secret, alg)}`;
}

/** An unsigned token (`alg: none`, empty signature) carrying the claims. */
export function unsignedJwt(claims: JwtClaims): string {
  return `${base64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${base64url(JSON.stringify(claims))}.`;
}

/** A token whose header claims `alg` but whose signature is random bytes (for RS256/ES256 confusion probes). */
export function fakeSignedJwt(claims: JwtClaims, alg: string): string {
  const sig = base64url(crypto.getRandomValues(new Uint8Array(64)));
  return `${base64url(JSON.stringify({ alg, typ: "JWT" }))}.${base64url(JSON.stringify(claims))}.${sig}`;
}

/** Header and payload of a compact JWT, without verifying it; undefined when it is not one. */
export function decodeJwt(token: string): { header: JwtClaims; payload: JwtClaims } | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  try {
    const header = decodeSegment(parts[0]!);
    const payload = decodeSegment(parts[1]!);
    if (typeof header !== "object" || header === null || typeof payload !== "object" || payload === null) return undefined;
    return { header: header as JwtClaims, payload: payload as JwtClaims };
  } catch {
    return undefined;
  }
}

/** The same token with its signature altered so that it no longer verifies. */
export function tamperSignature(token: string): string {
  const [h, p, s = ""] = token.split(".");
  // Flip the first signature character: the last one may only carry padding bits and decode to the same bytes.
  const first = s[0] === "A" ? "B" : "A";
  return `${h}.${p}.${first}${s.slice(1)}`;
}

/** Claims for a kit-minted user token: sub, iat, exp, jti, iss as the service mints them (docs/api.md § Tokens). */
export function userClaims(sub: string, opts: { iatOffsetS?: number; ttlS?: number; iss?: string } = {}): JwtClaims {
  const now = Math.floor(Date.now() / 1000);
  const iat = now + (opts.iatOffsetS ?? 0);
  return { sub, iat, exp: iat + (opts.ttlS ?? 24 * 3600), jti: crypto.randomUUID(), iss: opts.iss ?? "graph-stats" };
}

/** A short label for evidence output that identifies a token without revealing it. */
export function describeToken(token: string): string {
  const decoded = decodeJwt(token);
  if (!decoded) return `<non-JWT, ${token.length} chars>`;
  const { header, payload } = decoded;
  const exp = typeof payload.exp === "number" ? new Date(payload.exp * 1000).toISOString() : "none";
  return `<JWT alg=${String(header.alg)} sub=${String(payload.sub)} exp=${exp}>`;
}
