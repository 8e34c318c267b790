/** Token handling on the live endpoint (docs/api.md § Tokens, § Errors, § Headers). */
import { errorEnvelopeProblems, firstError, must } from "../lib/assert.ts";
import type { Context } from "../lib/context.ts";
import { fakeSignedJwt, signJwt, tamperSignature, unsignedJwt, userClaims } from "../lib/jwt.ts";
import type { Check } from "../lib/check.ts";
import { type Exchange, type Profile, Skip } from "../lib/types.ts";

interface Probe {
  label: string;
  /** Full Authorization header value, or undefined for none. */
  auth?: string;
  /** The exact 401 message of docs/api.md § Tokens, checked in the full profile. */
  message: string;
}

async function send(ctx: Context, probe: Probe): Promise<Exchange> {
  const headers: Record<string, string> = probe.auth === undefined ? {} : { Authorization: probe.auth };
  return ctx.live(undefined, undefined, { headers });
}

/** Core: the probe is refused (4xx, never 2xx) in the error envelope. Full: 401 UNAUTHORIZED with the exact message. */
async function judge(ctx: Context, probes: Probe[], profile: Profile): Promise<void> {
  for (const probe of probes) {
    const ex = await send(ctx, probe);
    must(ex.status >= 400 && ex.status < 500, `${probe.label}: answered ${ex.status}, expected a 4xx refusal`, ex);
    const p = errorEnvelopeProblems(ex);
    must(p.length === 0, `${probe.label}: error envelope: ${p.join("; ")}`, ex);
    if (profile === "full") {
      const e = firstError(ex);
      must(ex.status === 401 && e.code === "UNAUTHORIZED", `${probe.label}: got ${ex.status} ${e.code}, expected 401 UNAUTHORIZED`, ex);
      must(
        e.message === probe.message,
        `${probe.label}: message ${JSON.stringify(e.message)}, expected ${JSON.stringify(probe.message)}`,
        ex,
      );
      const www = ex.headers.get("www-authenticate") ?? "";
      must(/^Bearer realm="graph-stats"/.test(www), `${probe.label}: WWW-Authenticate is ${JSON.stringify(www)}`, ex);
    }
  }
}

const MALFORMED_HEADER = "malformed authorization header: expected 'Bearer <token>'";

async function probes(ctx: Context, kind: string): Promise<Probe[]> {
  const claims = await ctx.probeClaims();
  const secret = ctx.options.secret;
  switch (kind) {
    case "missing":
      return [{ label: "no Authorization header", message: "missing bearer token" }];
    case "malformed":
      return [
        { label: "Authorization: Basic …", auth: "Basic dXNlcjpwYXNz", message: MALFORMED_HEADER },
        { label: "Bearer with two tokens", auth: "Bearer a.b.c d.e.f", message: MALFORMED_HEADER },
        { label: "Bearer not-a-jwt", auth: "Bearer not-a-jwt", message: "malformed token" },
        { label: "Bearer with undecodable segments", auth: "Bearer %%%.###.$$$", message: "malformed token" },
      ];
    case "bad-signature": {
      const wrongKey = await signJwt(claims, `not-the-secret-${crypto.randomUUID()}`);
      const list: Probe[] = [
        { label: "token signed with another secret (forged)", auth: `Bearer ${wrongKey}`, message: "invalid token signature" },
      ];
      const base = secret ? await signJwt(claims, secret) : ctx.options.token;
      if (base)
        list.push({
          label: "valid token with an altered signature",
          auth: `Bearer ${tamperSignature(base)}`,
          message: "invalid token signature",
        });
      return list;
    }
    case "alg-none":
      return [{ label: "alg:none token", auth: `Bearer ${unsignedJwt(claims)}`, message: "unsupported token algorithm" }];
    case "wrong-algorithm": {
      const list: Probe[] = [
        { label: "RS256-labelled token", auth: `Bearer ${fakeSignedJwt(claims, "RS256")}`, message: "unsupported token algorithm" },
      ];
      // With the secret, HS512 is correctly keyed: only an algorithm check refuses it.
      const hs512 = secret ? await signJwt(claims, secret, "HS512") : fakeSignedJwt(claims, "HS512");
      list.push({ label: "HS512 token", auth: `Bearer ${hs512}`, message: "unsupported token algorithm" });
      return list;
    }
    default:
      throw new Error(`unknown probe kind ${kind}`);
  }
}

function refusalCheck(kind: string, title: string, profile: Profile): Check {
  return {
    id: `auth.${kind}${profile === "full" ? "-401" : ""}`,
    title:
      profile === "core"
        ? `${title} is refused in the error envelope`
        : `${title} gets 401 UNAUTHORIZED with its documented message and WWW-Authenticate`,
    cites: profile === "core" ? "docs/api.md § Tokens, § Errors" : "docs/api.md § Tokens, § Headers",
    profile,
    run: async (ctx) => judge(ctx, await probes(ctx, kind), profile),
  };
}

const KINDS: [string, string][] = [
  ["missing", "a request without a token"],
  ["malformed", "a malformed Authorization header or token"],
  ["bad-signature", "a badly signed token"],
  ["alg-none", "an alg:none token"],
  ["wrong-algorithm", "a token with another algorithm than HS256"],
];

export const AUTH_CHECKS: Check[] = [
  ...KINDS.map(([k, t]) => refusalCheck(k, t, "core")),
  {
    id: "auth.expired",
    title: "an expired token gets 401 UNAUTHORIZED whose message says the token expired",
    cites: "docs/api.md § Tokens, § Errors",
    profile: "core",
    async run(ctx) {
      const ex = await ctx.live(await ctx.expiredToken(), undefined, { unmetered: true });
      const e = firstError(ex);
      must(ex.status === 401, `expired token: answered ${ex.status}, expected 401`, ex);
      must(e.code === "UNAUTHORIZED", `expired token: code ${JSON.stringify(e.code)}, expected "UNAUTHORIZED"`, ex);
      must(/expired/i.test(e.message ?? ""), `expired token: message ${JSON.stringify(e.message)} does not say the token expired`, ex);
      const p = errorEnvelopeProblems(ex);
      must(p.length === 0, `expired token: error envelope: ${p.join("; ")}`, ex);
    },
  },
  ...KINDS.map(([k, t]) => refusalCheck(k, t, "full")),
  {
    id: "auth.expired-401",
    title: "an expired token gets the documented message and WWW-Authenticate with error=invalid_token",
    cites: "docs/api.md § Tokens, § Headers",
    profile: "full",
    async run(ctx) {
      const ex = await ctx.live(await ctx.expiredToken(), undefined, { unmetered: true });
      const e = firstError(ex);
      must(e.message === "token expired — generate a new token", `message ${JSON.stringify(e.message)}`, ex);
      must(/error="invalid_token"/.test(ex.headers.get("www-authenticate") ?? ""), 'WWW-Authenticate lacks error="invalid_token"', ex);
    },
  },
  {
    id: "auth.not-yet-valid",
    title: "a token issued an hour in the future gets 401 'token not yet valid'",
    cites: "docs/api.md § Tokens",
    profile: "full",
    async run(ctx) {
      if (!ctx.options.secret) throw new Skip("needs --secret to mint a future token");
      const token = await signJwt(userClaims(`conformance-${ctx.runId}-future`, { iatOffsetS: 3600 }), ctx.options.secret);
      const ex = await ctx.live(token, undefined, { unmetered: true });
      const e = firstError(ex);
      must(ex.status === 401 && e.message === "token not yet valid", `future token: ${ex.status} ${JSON.stringify(e.message)}`, ex);
    },
  },
];
