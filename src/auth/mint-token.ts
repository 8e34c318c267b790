/** Issuing tokens (used by the CLI's `token create`, and by tests). */
import { SignJWT } from "jose";
import type { Clock } from "../clock.ts";

export const DEFAULT_ISSUER = "graph-stats";

export interface MintOptions {
  secret: string;
  userId: string;
  ttlSeconds: number;
  clock: Clock;
  issuer?: string;
  email?: string;
  nbf?: number;
  /** Extra claims; the standard ones above always win over same-named extras. */
  extra?: Record<string, unknown>;
}

export interface MintedToken {
  token: string;
  jti: string;
  /** Epoch seconds. */
  iat: number;
  /** Epoch seconds (iat + ttlSeconds). */
  exp: number;
}

/** Mints an HS256 JWT `{ sub, iat, exp = iat + ttl, jti, iss[, email, nbf] }` signed with `secret`. */
export async function mintToken(o: MintOptions): Promise<MintedToken> {
  const iat = Math.floor(o.clock.now() / 1000);
  const exp = iat + o.ttlSeconds;
  const jti = crypto.randomUUID();
  const claims: Record<string, unknown> = { ...o.extra, sub: o.userId, iat, exp, jti, iss: o.issuer ?? DEFAULT_ISSUER };
  if (o.email !== undefined) claims.email = o.email;
  if (o.nbf !== undefined) claims.nbf = o.nbf;
  const token = await new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" }).sign(new TextEncoder().encode(o.secret));
  return { token, jti, iat, exp };
}
