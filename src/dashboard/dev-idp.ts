/**
 * The development identity provider (`serve --dev`): a real OpenID provider (panva's
 * oidc-provider) with one confidential client — graph-stats itself — and a sign-in page that
 * takes any name. It exists so the dashboard can be tried without registering with Google or
 * Okta, so it binds loopback only and says "development sign-in" on its page.
 */
import type { Server } from "node:http";
import { exportJWK, generateKeyPair } from "jose";
import { OidcMemoryStore, type StoreLimits } from "./oidc-memory-store.ts";

export interface DevIdpOptions {
  /** Must be a loopback address. */
  host: string;
  /** 0 for any free port. */
  port: number;
  clientId: string;
  clientSecret: string;
  /** The redirect URIs the client may use (`{PUBLIC_URL}/auth/callback`). */
  redirectUris: string[];
  /**
   * False: name and email only in the userinfo response, as oidc-provider does by default and
   * several hosted providers do (the tests check the dashboard then asks userinfo). Default true.
   */
  claimsInIdToken?: boolean;
  /** Bounds of the provider's in-memory storage (oidc-memory-store.ts); tests set small ones. */
  storeLimits?: StoreLimits;
}

export interface DevIdp {
  /** Entries and bytes its storage holds (tests). */
  stored(): { entries: number; bytes: number };
  issuer: string;
  port: number;
  stop(): Promise<void>;
}

export const DEV_CLIENT_ID = "graph-stats-dev";

/** True for 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h);
}

export async function startDevIdp(o: DevIdpOptions): Promise<DevIdp> {
  if (!isLoopbackHost(o.host)) {
    throw new Error(`the development sign-in only runs on a loopback address (127.0.0.1, ::1, localhost), not '${o.host}'`);
  }
  for (const uri of o.redirectUris) {
    if (!isLoopbackHost(new URL(uri).hostname)) {
      throw new Error(
        `the development sign-in only serves loopback redirect URIs, not '${uri}'; set --public-url to a loopback address or configure a real provider`,
      );
    }
  }
  const Provider = await importProvider();
  const store = new OidcMemoryStore(o.storeLimits);
  const { createServer } = await import("node:http");
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  const hostPart = o.host.includes(":") ? `[${o.host}]` : o.host;
  const issuer = `http://${hostPart}:${port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: "dev", alg: "RS256", use: "sig" };

  const provider = new Provider(issuer, {
    adapter: store.adapterClass(),
    clients: [
      {
        client_id: o.clientId,
        client_secret: o.clientSecret,
        redirect_uris: o.redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [crypto.randomUUID()] },
    pkce: { required: () => true },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "preferred_username"] },
    features: {
      devInteractions: { enabled: false },
      // The provider's own end-session pages, in the same marked page as the rest (its defaults load a web font from Google).
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx: any, form: string) => {
          ctx.body = page(
            "Sign out",
            `${form}<p>Sign out of the development sign-in?</p><button type="submit" form="op.logoutForm" name="logout" value="yes" autofocus>Yes, sign me out</button> <button type="submit" form="op.logoutForm">No, stay signed in</button>`,
          );
        },
        postLogoutSuccessSource: async (ctx: any) => {
          ctx.body = page("Signed out", "<p>You are signed out of the development sign-in.</p>");
        },
      },
    },
    // Name and email in the ID token itself (the dashboard asks userinfo only when they are missing).
    conformIdTokenClaims: o.claimsInIdToken === false,
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    // A first-party client: no consent screen, the grant is made on sign-in.
    loadExistingGrant: async (ctx: any) => {
      const existing = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    findAccount: async (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: async () => ({ sub: id, name: id, preferred_username: id, email: `${id}@dev.invalid`, email_verified: false }),
    }),
    renderError: async (ctx: any, out: Record<string, string>) => {
      ctx.type = "html";
      ctx.body = page("Sign-in failed", `<p>${escapeHtml(out.error ?? "error")}: ${escapeHtml(out.error_description ?? "")}</p>`);
    },
  });
  provider.proxy = false;
  // The sign-in form's POST ends in redirects back to the client: CSP form-action must allow its origins.
  const formTargets = [...new Set(o.redirectUris.map((u) => new URL(u).origin))].join(" ");
  provider.use(interactionRoutes(provider, formTargets));
  server.on("request", provider.callback());

  return {
    issuer,
    port,
    stored: () => store.size(),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** The sign-in page: any name (letters, digits, `.`, `_`, `-`) becomes the account. */
function interactionRoutes(provider: any, formTargets: string) {
  return async (ctx: any, next: () => Promise<void>) => {
    const m = /^\/interaction\/([A-Za-z0-9_-]+)(\/login)?$/.exec(ctx.path);
    if (!m) return next();
    ctx.set("Cache-Control", "no-store");
    ctx.set(
      "Content-Security-Policy",
      `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${formTargets}; frame-ancestors 'none'; base-uri 'none'`,
    );
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    if (details.prompt.name !== "login") {
      ctx.status = 400;
      ctx.body = page("Development sign-in", "<p>Unexpected step; start again from the dashboard.</p>");
      return;
    }
    if (ctx.method === "GET" && !m[2]) {
      ctx.type = "html";
      ctx.body = page("Development sign-in", loginForm(details.uid, ""));
      return;
    }
    if (ctx.method === "POST" && m[2]) {
      const form = new URLSearchParams(await readBody(ctx.req));
      const name = (form.get("login") ?? "").trim();
      if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) {
        ctx.status = 400;
        ctx.type = "html";
        ctx.body = page("Development sign-in", loginForm(details.uid, "Use 1–64 letters, digits, '.', '_' or '-'."));
        return;
      }
      await provider.interactionFinished(ctx.req, ctx.res, { login: { accountId: name } }, { mergeWithLastSubmission: false });
      return;
    }
    return next();
  };
}

/** The sign-in form (exported for its test: the name pattern must compile as browsers compile it, with the v flag). */
export function loginForm(uid: string, error: string): string {
  return `<p>Any name signs you in as that user. Nothing is checked.</p>
${error ? `<p role="alert" class="err">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label for="login">Name</label>
<input id="login" name="login" autocomplete="username" required maxlength="64" pattern="[A-Za-z0-9._\\-]+" autofocus>
<button type="submit">Continue</button>
</form>`;
}

/** Every page the provider shows, its error and end-session pages included, carries the "development sign-in" mark. */
function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} — graph-stats</title><style>
body{font:16px/1.5 system-ui,sans-serif;max-width:26rem;margin:4rem auto;padding:0 1rem;color:#1f2937}
h1{font-size:1.4rem}.dev{display:inline-block;background:#fef3c7;color:#92400e;border:1px solid #f59e0b;border-radius:4px;padding:.1rem .5rem;font-size:.85rem}
label{display:block;font-weight:600;margin-top:1rem}input{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #9ca3af;border-radius:4px}
button{margin-top:1rem;padding:.5rem 1.2rem;font:inherit;background:#1d4ed8;color:#fff;border:0;border-radius:4px;cursor:pointer}.err{color:#b91c1c}
</style></head><body><p class="dev">development sign-in — not for production</p><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function readBody(req: AsyncIterable<Buffer>): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const c of req) {
    size += c.length;
    if (size > 4096) throw new Error("sign-in form too large");
    chunks.push(c);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * oidc-provider warns on import that it was not tested on Bun; the warning is noise for a
 * development sign-in (the end-to-end tests exercise it on Bun), so it is filtered once.
 */
async function importProvider(): Promise<any> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].includes("Unsupported runtime")) return;
    warn(...args);
  };
  try {
    return (await import("oidc-provider")).default;
  } finally {
    console.warn = warn;
  }
}
