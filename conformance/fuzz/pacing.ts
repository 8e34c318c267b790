/**
 * Metering for fuzz cases. With --secret each case gets a freshly minted user, so the per-minute
 * limit never masks a result. With only --token every token-carrying case is a metered call
 * against --budget; after a 429, or a 200 that leaves no call in the minute, the next case that
 * could be admitted waits until the window frees (with --slow, on the kit's clock) or is not sent.
 * A 429 is judged like any answer and never re-sent. Invalid-credential probes are never metered.
 */
import type { Context } from "../lib/context.ts";
import { fakeSignedJwt, signJwt, unsignedJwt, userClaims } from "../lib/jwt.ts";
import { intHeader } from "../lib/spec-forms.ts";
import { type Exchange, REAL_TIME, Skip } from "../lib/types.ts";
import type { AuthKind } from "./cases.ts";

/** The longest wait the kit will make for a window (a daily quota's Retry-After is hours: not waited for). */
export const MAX_WAIT_MS = 120_000;

export interface Credentials {
  /** The Authorization header to send, if any. */
  authorization?: string;
  /** How the curl line writes it: `$TOKEN` for a real token, the literal header for a probe. */
  curlAuthorization?: string;
  /** A real token, counted against --budget. */
  metered: boolean;
}

/** What pacing decided for a case: send it (after any wait), or not, saying why. */
export type Admission = { send: true } | { send: false; reason: string };

export class Pacer {
  /** Kit-clock time before which user A's window is known to be used up (token mode only). */
  private blockedUntil = 0;
  waitedMs = 0;

  constructor(private readonly ctx: Context) {}

  get mode(): "fresh" | "token" | "none" {
    return this.ctx.options.secret ? "fresh" : this.ctx.options.token ? "token" : "none";
  }

  private get clock() {
    return this.ctx.options.clock ?? REAL_TIME;
  }

  /** Credentials for a case; a fresh user's token per call with --secret. Throws Skip when no valid token exists. */
  async credentials(auth: AuthKind, reuse?: Credentials): Promise<Credentials> {
    if (auth === "valid") {
      if (reuse?.metered) return reuse;
      const token =
        this.mode === "fresh" ? await this.ctx.freshToken("fuzzing") : this.mode === "token" ? this.ctx.options.token! : undefined;
      if (!token) throw new Skip("fuzzing a secured operation with valid credentials needs --secret (fresh users) or --token");
      return { authorization: `Bearer ${token}`, curlAuthorization: "Bearer $TOKEN", metered: true };
    }
    const probe = await this.probe(auth);
    return probe === undefined ? { metered: false } : { authorization: probe, curlAuthorization: probe, metered: false };
  }

  /** An Authorization header no server may accept; minted ones carry a throwaway subject. */
  private async probe(auth: AuthKind): Promise<string | undefined> {
    const claims = await this.ctx.probeClaims();
    switch (auth) {
      case "none":
        return undefined;
      case "garbage":
        return "garbage";
      case "basic":
        return "Basic dXNlcjpwYXNz";
      case "empty-bearer":
        return "Bearer ";
      case "not-a-jwt":
        return "Bearer not.a.jwt";
      case "alg-none":
        return `Bearer ${unsignedJwt(claims)}`;
      case "forged":
        return `Bearer ${fakeSignedJwt(claims, "HS256")}`;
      case "rs256":
        return `Bearer ${fakeSignedJwt(claims, "RS256")}`;
      case "expired":
        // Signed for real only with --secret; else a forged one, still expired.
        return this.ctx.options.secret
          ? `Bearer ${await signJwt(userClaims(String(claims.sub), { iatOffsetS: -2 * 86400 }), this.ctx.options.secret)}`
          : `Bearer ${fakeSignedJwt(userClaims(String(claims.sub), { iatOffsetS: -2 * 86400 }), "HS256")}`;
      default:
        return undefined;
    }
  }

  /**
   * Before a metered case in token mode: wait out a known-used window (with --slow) or hold back a
   * case that would be admitted; a case the schemas already forbid is refused before metering
   * (docs/api.md § Refused before metering), so it goes regardless.
   */
  async admit(cred: Credentials, refusedBeforeMetering: boolean): Promise<Admission> {
    if (!cred.metered) return { send: true };
    if (this.ctx.client.remainingBudget <= 0) {
      return {
        send: false,
        reason: `metered-call budget of ${this.ctx.client.budget} spent (raise --budget, or pass --secret on a test deployment)`,
      };
    }
    if (this.mode !== "token" || refusedBeforeMetering) return { send: true };
    const wait = this.blockedUntil - this.clock.now();
    if (wait <= 0) return { send: true };
    if (!this.ctx.options.slow) return { send: false, reason: "user A's minute window is used up; pass --slow to wait for Retry-After" };
    if (wait > MAX_WAIT_MS) return { send: false, reason: `user A must wait ${Math.ceil(wait / 1000)} s (a daily quota?); not waited for` };
    await this.clock.sleep(wait);
    this.waitedMs += wait;
    return { send: true };
  }

  /** Learn user A's window from a token-mode answer: a 429's Retry-After, or a 200 leaving nothing this minute. */
  observe(ex: Exchange, cred: Credentials): void {
    if (this.mode !== "token" || !cred.metered) return;
    const now = ex.receivedAt;
    if (ex.status === 429) {
      const retry = intHeader(ex.headers, "Retry-After");
      this.blockedUntil = Math.max(this.blockedUntil, now + (retry ?? 60) * 1000 + 250);
    } else if (intHeader(ex.headers, "X-RateLimit-Remaining") === 0) {
      const reset = intHeader(ex.headers, "X-RateLimit-Reset");
      const until = reset !== undefined && reset * 1000 > now ? reset * 1000 : now + 60_000;
      this.blockedUntil = Math.max(this.blockedUntil, until + 250);
    }
  }
}
