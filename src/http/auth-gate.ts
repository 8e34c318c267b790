/**
 * Turns an Authorization header into a known, enabled user with effective limits — or an
 * HttpError carrying the exact 401/403 of docs/api.md § Tokens, with RFC 6750 WWW-Authenticate.
 */
import type { Caller } from "../auth/new-users.ts";
import { AUTH_MESSAGES, type VerifyResult } from "../auth/verify-token.ts";
import { assertEnabled, effectiveLimits } from "../auth/user-access.ts";
import type { Limits } from "../metering/windows.ts";
import { HttpError } from "./http-error.ts";

export interface AuthedUser {
  id: string;
  limits: Limits;
  /** The user's plan, recorded with each admitted request (the billing export's). */
  plan: string;
  /** May read the admin API (routes/admin-export.ts). */
  admin?: boolean;
}

export interface AuthGateDeps {
  /** Header, token shape, algorithm, signature and claims; revocation is read with the user (`caller`). */
  verify(header: string | null): Promise<VerifyResult>;
  /** The user's flags and per-user overrides (created on first use), or that the token's jti is revoked. */
  caller(id: string, email: string | undefined, jti: string | undefined): Promise<Caller>;
  defaults: Limits;
}

export type AuthGate = (header: string | null) => Promise<AuthedUser>;

const REALM = 'Bearer realm="graph-stats"';

export function createAuthGate(deps: AuthGateDeps): AuthGate {
  return async function authenticate(header) {
    const result = await deps.verify(header);
    if (!result.ok) throw unauthorized(result.message, result.tokenSent);
    const { sub, email, jti } = result.claims;
    const caller = await deps.caller(sub, email, jti);
    if (caller.revoked) throw unauthorized(AUTH_MESSAGES.revoked, true);
    assertEnabled(sub, caller.user);
    return { id: sub, limits: effectiveLimits(caller.user, deps.defaults), plan: caller.user.plan ?? "free", admin: caller.user.admin };
  };
}

function unauthorized(message: string, tokenSent: boolean): HttpError {
  const challenge = tokenSent ? `${REALM}, error="invalid_token", error_description="${headerSafe(message)}"` : REALM;
  return new HttpError(401, "UNAUTHORIZED", message, { "WWW-Authenticate": challenge });
}

/** RFC 6750 §3 allows only printable ASCII without `"` and `\\` in error_description. */
function headerSafe(message: string): string {
  return message.replace(/\u2014/g, "-").replace(/[^\x20-\x7e]|["\\]/g, "");
}
