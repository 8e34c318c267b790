/**
 * Turns an Authorization header into a known, enabled user with effective limits — or an
 * HttpError carrying the exact 401/403 of docs/api.md § Tokens, with RFC 6750 WWW-Authenticate.
 */
import type { VerifyResult } from "../auth/verify-token.ts";
import { assertEnabled, effectiveLimits } from "../auth/user-access.ts";
import type { Limits } from "../metering/windows.ts";
import { HttpError } from "./http-error.ts";

export interface AuthedUser {
  id: string;
  limits: Limits;
}

export interface AuthGateDeps {
  verify(header: string | null): Promise<VerifyResult>;
  /** Creates the user on first use; returns its flags and per-user overrides. */
  ensureUser(id: string, email: string | undefined): Promise<{ disabled: boolean; perMinute: number | null; perDay: number | null }>;
  defaults: Limits;
}

export type AuthGate = (header: string | null) => Promise<AuthedUser>;

const REALM = 'Bearer realm="graph-stats"';

export function createAuthGate(deps: AuthGateDeps): AuthGate {
  return async function authenticate(header) {
    const result = await deps.verify(header);
    if (!result.ok) {
      const challenge = result.tokenSent ? `${REALM}, error="invalid_token", error_description="${headerSafe(result.message)}"` : REALM;
      throw new HttpError(401, "UNAUTHORIZED", result.message, { "WWW-Authenticate": challenge });
    }
    const { sub, email } = result.claims;
    const user = await deps.ensureUser(sub, email);
    assertEnabled(sub, user);
    return { id: sub, limits: effectiveLimits(user, deps.defaults) };
  };
}

/** RFC 6750 §3 allows only printable ASCII without `"` and `\\` in error_description. */
function headerSafe(message: string): string {
  return message.replace(/\u2014/g, "-").replace(/[^\x20-\x7e]|["\\]/g, "");
}
