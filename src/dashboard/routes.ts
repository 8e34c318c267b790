/**
 * The dashboard's routes (README.md § Dashboard): pages, sign-in and sign-out, and the JSON actions of a
 * signed-in user. Every state change is a POST whose Origin must be the service's own and which
 * must carry the session's CSRF token; pages carry a strict Content-Security-Policy.
 */
import { timingSafeEqual } from "node:crypto";
import type { AuthedUser } from "../http/auth-gate.ts";
import type { AppDeps, DashboardHandler, DashboardRoute, RequestState } from "../http/context.ts";
import { baseMeta, jsonResponse, successBody } from "../http/envelope.ts";
import { HttpError } from "../http/http-error.ts";
import { handleChart } from "../http/routes/chart.ts";
import type { AuthStore, UserRecord } from "../auth/index.ts";
import type { Limits } from "../metering/index.ts";
import type { Account } from "./account.ts";
import { cookieName, readCookie, setCookie } from "./cookies.ts";
import type { OidcClient, PendingSignIn } from "./oidc-client.ts";
import { renderDashboard } from "./pages.ts";
import type { Sealer } from "./sealed-cookie.ts";
import type { Session, SessionStore } from "./session-store.ts";
import type { DashboardView, SignedInView } from "./view-model.ts";
import { assetResponse, type WebAssets } from "./web-assets.ts";
import { queryFromBody, readBody } from "./request-body.ts";
import { CallbackRate, SpentSignIns } from "./spent-sign-ins.ts";
import { acceptsGzip } from "../http/envelope.ts";

export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export interface DashboardDeps {
  app: AppDeps;
  auth: AuthStore;
  sessions: SessionStore;
  account: Account;
  /** Null when no identity provider is configured (the page says how to configure one). */
  signIn(): OidcClient | null;
  dev: boolean;
  publicUrl(): string;
  /**
   * False when the public URL is the loopback default: a page opened at another host name
   * (`localhost` for `127.0.0.1`) is then sent to the canonical one, or its cookies and Origin
   * would not match the sign-in's redirect URI. With a configured URL nothing is redirected, since
   * a proxy in front may rewrite Host.
   */
  publicUrlConfigured: boolean;
  loginSealer: Sealer<PendingSignIn>;
  defaults: Limits;
  assets(): Promise<WebAssets>;
}

export type { DashboardHandler, DashboardRoute };

/** How long a pending sign-in's cookie lives (seconds); server.ts seals it with this lifetime. */
export const LOGIN_TTL_S = 600;

export function dashboardRoutes(d: DashboardDeps): DashboardRoute[] {
  const spent = new SpentSignIns(() => d.app.clock.now(), LOGIN_TTL_S * 1000);
  const callbacks = new CallbackRate(() => d.app.clock.now());
  const secure = () => d.publicUrl().startsWith("https:");
  const sessionCookie = () => cookieName("gs_session", { secure: secure(), path: "/" });
  const LOGIN_COOKIE = "gs_login";

  const pageHeaders = (state: RequestState): Record<string, string> => ({
    ...state.base,
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": CSP,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    // No Referer to other sites; not no-referrer, under which Chromium sends `Origin: null` on the sign-out form.
    "Referrer-Policy": "same-origin",
  });

  const html = async (state: RequestState, view: DashboardView, status = 200, extra: Record<string, string> = {}) => {
    const assets = await d.assets();
    return new Response(renderDashboard(view, { js: assets.jsUrl, css: assets.cssUrl }), {
      status,
      headers: { ...pageHeaders(state), ...extra },
    });
  };

  const json = (request: Request, state: RequestState, data: unknown, status = 200, extra: Record<string, string> = {}) =>
    jsonResponse(
      successBody(data, baseMeta(d.app.clock.now(), state.requestId)),
      status,
      { ...state.base, "Cache-Control": "no-store", ...extra },
      request.headers.get("accept-encoding"),
    );

  const currentSession = async (request: Request): Promise<{ id: string; session: Session } | null> => {
    const id = readCookie(request.headers.get("cookie"), sessionCookie());
    if (!id) return null;
    const session = await d.sessions.get(id);
    return session ? { id, session } : null;
  };

  const userOf = async (session: Session): Promise<UserRecord> => {
    const user = await d.auth.getUser(session.userId);
    if (!user) throw new HttpError(401, "UNAUTHORIZED", "your account no longer exists; sign in again");
    return user;
  };

  const limitsOf = (user: UserRecord): Limits => ({
    perMinute: user.perMinute ?? d.defaults.perMinute,
    perDay: user.perDay ?? d.defaults.perDay,
  });

  const signedInView = async (session: Session): Promise<SignedInView> => {
    const user = await userOf(session);
    const [name, usage, tokens, tokensLeftThisHour] = await Promise.all([
      d.sessions.identityName(user.id, session.issuer),
      d.account.usage(user.id, limitsOf(user)),
      d.account.liveTokens(user.id),
      d.account.tokensLeftThisHour(user.id),
    ]);
    return {
      user: { id: user.id, email: user.email, name, disabled: user.disabled },
      csrf: session.csrf,
      baseUrl: d.publicUrl(),
      usage,
      tokens,
      tokensLeftThisHour,
    };
  };

  /** A state change: a live session, our own Origin, and the session's CSRF token (compared in constant time). */
  const authorizeChange = async (request: Request, csrfGiven: string | null): Promise<{ id: string; session: Session }> => {
    const origin = request.headers.get("origin");
    if (origin !== new URL(d.publicUrl()).origin) {
      throw new HttpError(
        403,
        "FORBIDDEN",
        `cross-origin request refused: Origin ${origin === null ? "missing" : `'${origin.slice(0, 100)}'`} is not ${new URL(d.publicUrl()).origin}`,
      );
    }
    const current = await currentSession(request);
    if (!current) throw new HttpError(401, "UNAUTHORIZED", "not signed in, or the session expired; sign in again");
    if (!csrfGiven || !sameSecret(csrfGiven, current.session.csrf)) {
      throw new HttpError(403, "FORBIDDEN", "missing or wrong CSRF token; reload the dashboard and try again");
    }
    return current;
  };

  const elsewhere = (request: Request, state: RequestState): Response | null => {
    if (d.publicUrlConfigured) return null;
    const canonical = new URL(d.publicUrl());
    if (request.headers.get("host") === canonical.host) return null;
    return new Response(null, {
      status: 302,
      headers: { ...state.base, Location: `${canonical.origin}${state.path}`, "Cache-Control": "no-store" },
    });
  };

  const clearSession = () => setCookie(sessionCookie(), "", { secure: secure(), path: "/", maxAge: 0 });

  const asset =
    (kind: "js" | "css"): DashboardHandler =>
    async (request, state) =>
      assetResponse(await d.assets(), kind, acceptsGzip(request.headers.get("accept-encoding")), state.base);

  return [
    { method: "GET", path: "/dashboard/assets/app.js", handler: asset("js") },
    { method: "GET", path: "/dashboard/assets/app.css", handler: asset("css") },
    {
      method: "GET",
      path: "/dashboard",
      handler: async (request, state) => {
        const moved = elsewhere(request, state);
        if (moved) return moved;
        const current = await currentSession(request);
        if (current) {
          state.userId = current.session.userId;
          return html(state, { dev: d.dev, signedIn: await signedInView(current.session), notice: null });
        }
        const hadCookie = readCookie(request.headers.get("cookie"), sessionCookie()) !== null;
        const notice = hadCookie
          ? { kind: "info" as const, text: "Your session has expired. Sign in again." }
          : d.signIn() === null
            ? {
                kind: "info" as const,
                text: "Sign-in is not configured on this server: the operator sets --oidc-issuer, --oidc-client-id and --oidc-client-secret (or runs serve --dev for the development sign-in).",
              }
            : null;
        return html(state, { dev: d.dev, signedIn: null, notice }, 200, hadCookie ? { "Set-Cookie": clearSession() } : {});
      },
    },
    {
      method: "GET",
      path: "/auth/login",
      handler: async (request, state) => {
        const moved = elsewhere(request, state);
        if (moved) return moved;
        const client = d.signIn();
        if (!client)
          return html(
            state,
            { dev: d.dev, signedIn: null, notice: { kind: "error", text: "Sign-in is not configured on this server." } },
            404,
          );
        let begun: Awaited<ReturnType<OidcClient["begin"]>>;
        try {
          begun = await client.begin();
        } catch (err) {
          d.app.logger.error({ request_id: state.requestId, err: errorText(err) }, "identity provider discovery failed");
          return html(
            state,
            {
              dev: d.dev,
              signedIn: null,
              notice: { kind: "error", text: "The identity provider cannot be reached right now. Try again in a minute." },
            },
            503,
            { "Retry-After": "30" },
          );
        }
        const sealed = await d.loginSealer.seal(begun.pending);
        return new Response(null, {
          status: 302,
          headers: {
            ...state.base,
            Location: begun.url,
            "Cache-Control": "no-store",
            "Set-Cookie": setCookie(LOGIN_COOKIE, sealed, { secure: secure(), path: "/auth", maxAge: LOGIN_TTL_S }),
          },
        });
      },
    },
    {
      method: "GET",
      path: "/auth/callback",
      handler: async (request, state) => {
        const clearLogin = setCookie(LOGIN_COOKIE, "", { secure: secure(), path: "/auth", maxAge: 0 });
        const fail = (text: string, status = 400) =>
          html(state, { dev: d.dev, signedIn: null, notice: { kind: "error", text } }, status, { "Set-Cookie": clearLogin });
        const client = d.signIn();
        if (!client) return fail("Sign-in is not configured on this server.", 404);
        const query = new URL(request.url).search;
        const params = new URLSearchParams(query);
        if (params.has("error")) {
          // The provider's own words go to the log, never onto our page: anyone can put any text in this URL.
          d.app.logger.warn(
            {
              request_id: state.requestId,
              error: (params.get("error") ?? "").slice(0, 100),
              error_description: (params.get("error_description") ?? "").slice(0, 200),
            },
            "the identity provider refused the sign-in",
          );
          return fail("The identity provider did not complete the sign-in. Sign in again; if it keeps failing, ask your administrator.");
        }
        const wait = callbacks.take(state.server?.requestIP(request)?.address ?? "unknown");
        if (wait > 0) {
          return html(
            state,
            {
              dev: d.dev,
              signedIn: null,
              notice: { kind: "error", text: `Too many sign-in attempts from this address. Try again in ${wait}s.` },
            },
            429,
            { "Retry-After": String(wait), "Set-Cookie": clearLogin },
          );
        }
        const pending = await d.loginSealer.open(readCookie(request.headers.get("cookie"), LOGIN_COOKIE));
        if (!pending) return fail("This sign-in expired or was started in another browser. Sign in again.");
        // Single use, whatever the outcome: a second callback with this cookie never reaches the provider.
        const use = spent.spend(pending.state);
        if (use === "spent") return fail("This sign-in was already used. Sign in again.");
        if (use === "full") {
          return html(
            state,
            { dev: d.dev, signedIn: null, notice: { kind: "error", text: "Too many sign-ins are under way. Try again in a minute." } },
            503,
            { "Retry-After": "60", "Set-Cookie": clearLogin },
          );
        }
        let identity: Awaited<ReturnType<OidcClient["finish"]>>;
        try {
          identity = await client.finish(new URL(`${d.publicUrl()}/auth/callback${query}`), pending);
        } catch (err) {
          d.app.logger.warn({ request_id: state.requestId, err: errorText(err) }, "sign-in callback refused");
          return fail("The sign-in could not be verified. Sign in again.");
        }
        const userId = await d.sessions.signIn(identity);
        state.userId = userId;
        const { id } = await d.sessions.create(userId, identity.issuer);
        // The callback URL carries the authorization code: it is never sent on as a Referer.
        const headers = new Headers({
          ...state.base,
          Location: "/dashboard",
          "Cache-Control": "no-store",
          "Referrer-Policy": "no-referrer",
        });
        headers.append("Set-Cookie", clearLogin);
        headers.append("Set-Cookie", setCookie(sessionCookie(), id, { secure: secure(), path: "/" }));
        return new Response(null, { status: 303, headers });
      },
    },
    {
      method: "POST",
      path: "/auth/logout",
      handler: async (request, state) => {
        const form = new URLSearchParams(await readBody(request));
        const { id } = await authorizeChange(request, form.get("csrf"));
        await d.sessions.destroy(id);
        return new Response(null, {
          status: 303,
          headers: { ...state.base, Location: "/dashboard", "Cache-Control": "no-store", "Set-Cookie": clearSession() },
        });
      },
    },
    {
      method: "GET",
      path: "/dashboard/api/state",
      handler: async (request, state) => {
        const current = await currentSession(request);
        if (!current) throw new HttpError(401, "UNAUTHORIZED", "not signed in, or the session expired; sign in again");
        state.userId = current.session.userId;
        return json(request, state, await signedInView(current.session));
      },
    },
    {
      method: "POST",
      path: "/dashboard/api/tokens",
      handler: async (request, state) => {
        const { session } = await authorizeChange(request, request.headers.get("x-csrf-token"));
        state.userId = session.userId;
        // A refusal (AccountError) is rendered by the app's one error mapping (src/http/http-error.ts).
        const token = await d.account.generate(await userOf(session));
        d.app.logger.info({ request_id: state.requestId, user_id: session.userId, jti: token.jti }, "token generated in the dashboard");
        return json(request, state, token, 201);
      },
    },
    {
      method: "POST",
      path: "/dashboard/api/tokens/:jti/revoke",
      handler: async (request, state) => {
        const { session } = await authorizeChange(request, request.headers.get("x-csrf-token"));
        state.userId = session.userId;
        // The router decodes the segment; malformed escapes leave none, which names no token (404).
        const jti = state.params.jti ?? "";
        await d.account.revoke(session.userId, jti);
        return json(request, state, { jti, revoked: true });
      },
    },
    {
      method: "POST",
      path: "/dashboard/api/query",
      handler: async (request, state) => {
        const { session } = await authorizeChange(request, request.headers.get("x-csrf-token"));
        const query = queryFromBody(await readBody(request));
        return handleChart(d.app, request, state, {
          query,
          authenticate: async (): Promise<AuthedUser> => {
            const user = await userOf(session);
            if (user.disabled) throw new HttpError(403, "FORBIDDEN", `user '${user.id}' is disabled; ask the operator to enable it`);
            return { id: user.id, limits: limitsOf(user) };
          },
        });
      },
    },
  ];
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** For logs: class and message, plus the provider's OAuth error code and description when it sent one. */
function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err).slice(0, 300);
  const oauth = err as Error & { error?: unknown; error_description?: unknown };
  const detail =
    typeof oauth.error === "string"
      ? ` (${oauth.error}${typeof oauth.error_description === "string" ? `: ${oauth.error_description}` : ""})`
      : "";
  return `${err.name}: ${err.message}${detail}`.slice(0, 300);
}
