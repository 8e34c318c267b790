/**
 * What every dashboard endpoint shares, built once per app: its dependencies, the session cookie,
 * the page and JSON responses, and the guards — requireSession for reads, authorizeChange
 * (Origin, session, CSRF token) for every state change, and requireAdmin over either for the
 * console (endpoints/admin/), checked on every request since the flag can be taken away.
 */
import { timingSafeEqual } from "node:crypto";
import { effectiveLimits, type UserRecord } from "../../auth/index.ts";
import type { RequestState } from "../../http/context.ts";
import { baseMeta, jsonResponse, successBody } from "../../http/envelope.ts";
import { HttpError } from "../../http/http-error.ts";
import { cookieName, readCookies, setCookie } from "../cookies.ts";
import { type PageAssets, renderDashboard } from "../pages.ts";
import { isSessionId, PENDING_SIGN_IN_MS } from "../session-policy.ts";
import type { Session } from "../session-store.ts";
import type { DashboardView, SignedInView } from "../view-model.ts";
import type { DashboardDeps } from "./deps.ts";

export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** How long a pending sign-in's cookie lives (seconds); server.ts seals it with this lifetime, the store keeps its spent mark as long. */
export const LOGIN_TTL_S = PENDING_SIGN_IN_MS / 1000;
export const LOGIN_COOKIE = "gs_login";

export interface SignedIn {
  id: string;
  session: Session;
}

/** A signed-in admin, and the actor its console actions are recorded under. */
export interface SignedInAdmin extends SignedIn {
  user: UserRecord;
  /** `console:<user id>`. */
  actor: string;
}

/** Said to a signed-in user who is not an admin, on every console route. */
export const NOT_ADMIN = "the admin console is for admins; an operator makes one with 'graph-stats user admin USER --on'";

export interface DashboardContext {
  d: DashboardDeps;
  secure(): boolean;
  sessionCookie(): string;
  /** The Set-Cookie that ends the session cookie. */
  clearSession(): string;
  html(state: RequestState, view: DashboardView, status?: number, extra?: Record<string, string>): Promise<Response>;
  /** Any page of the dashboard's (the console's shell), rendered with the bundle's URLs, with the dashboard's CSP and headers. */
  page(state: RequestState, render: (assets: PageAssets) => string, status?: number): Promise<Response>;
  json(request: Request, state: RequestState, data: unknown, status?: number, extra?: Record<string, string>): Response;
  currentSession(request: Request): Promise<SignedIn | null>;
  /** The live session, or 401. */
  requireSession(request: Request): Promise<SignedIn>;
  /** A state change: our own Origin, a live session, and its CSRF token (compared in constant time); else 403/401. */
  authorizeChange(request: Request, csrfGiven: string | null): Promise<SignedIn>;
  /**
   * The session's user is an admin, else 403: for a read (`change` false) a live session (401),
   * for a state change authorizeChange first.
   */
  requireAdmin(request: Request, change: boolean): Promise<SignedInAdmin>;
  /** The session's user, or 401 when the account is gone. */
  userOf(session: Session): Promise<UserRecord>;
  signedInView(session: Session): Promise<SignedInView>;
  /** A 302 to the canonical host when the page was opened at another name for it (see DashboardDeps). */
  elsewhere(request: Request, state: RequestState): Response | null;
}

export function createDashboardContext(d: DashboardDeps): DashboardContext {
  const secure = () => d.publicUrl().startsWith("https:");
  const sessionCookie = () => cookieName("gs_session", { secure: secure(), path: "/" });

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

  // Each same-named cookie that could be a session, in order: a stale one sent first (another
  // path's, a parent domain's) must not hide the live one.
  const currentSession = async (request: Request): Promise<SignedIn | null> => {
    for (const id of readCookies(request.headers.get("cookie"), sessionCookie())) {
      if (!isSessionId(id)) continue;
      const session = await d.sessions.get(id);
      if (session) return { id, session };
    }
    return null;
  };

  const userOf = async (session: Session): Promise<UserRecord> => {
    const user = await d.auth.getUser(session.userId);
    if (!user) throw new HttpError(401, "UNAUTHORIZED", "your account no longer exists; sign in again");
    return user;
  };

  const requireSession = async (request: Request): Promise<SignedIn> => {
    const current = await currentSession(request);
    if (!current) throw new HttpError(401, "UNAUTHORIZED", "not signed in, or the session expired; sign in again");
    return current;
  };

  const authorizeChange = async (request: Request, csrfGiven: string | null): Promise<SignedIn> => {
    const origin = request.headers.get("origin");
    const ours = new URL(d.publicUrl()).origin;
    if (origin !== ours) {
      throw new HttpError(
        403,
        "FORBIDDEN",
        `cross-origin request refused: Origin ${origin === null ? "missing" : `'${origin.slice(0, 100)}'`} is not ${ours}`,
      );
    }
    const current = await requireSession(request);
    if (!csrfGiven || !sameSecret(csrfGiven, current.session.csrf)) {
      throw new HttpError(403, "FORBIDDEN", "missing or wrong CSRF token; reload the dashboard and try again");
    }
    return current;
  };

  const page = async (state: RequestState, render: (assets: PageAssets) => string, status = 200, extra: Record<string, string> = {}) => {
    const assets = await d.assets();
    return new Response(render({ js: assets.jsUrl, css: assets.cssUrl }), { status, headers: { ...pageHeaders(state), ...extra } });
  };

  return {
    d,
    secure,
    sessionCookie,
    clearSession: () => setCookie(sessionCookie(), "", { secure: secure(), path: "/", maxAge: 0 }),

    html: (state, view, status = 200, extra = {}) => page(state, (assets) => renderDashboard(view, assets), status, extra),
    page: (state, render, status = 200) => page(state, render, status),

    json: (request, state, data, status = 200, extra = {}) =>
      jsonResponse(
        successBody(data, baseMeta(d.app.clock.now(), state.requestId)),
        status,
        { ...state.base, "Cache-Control": "no-store", ...extra },
        request.headers.get("accept-encoding"),
      ),

    currentSession,
    requireSession,

    authorizeChange,

    userOf,

    async requireAdmin(request, change) {
      const current = change ? await authorizeChange(request, request.headers.get("x-csrf-token")) : await requireSession(request);
      const user = await userOf(current.session);
      if (!user.admin) throw new HttpError(403, "FORBIDDEN", NOT_ADMIN);
      return { ...current, user, actor: `console:${user.id}` };
    },

    async signedInView(session) {
      const user = await userOf(session);
      const [name, usage, tokens, tokensLeftThisHour] = await Promise.all([
        d.sessions.identityName(user.id, session.issuer),
        d.account.usage(user.id, effectiveLimits(user, d.defaults)),
        d.account.liveTokens(user.id),
        d.account.tokensLeftThisHour(user.id),
      ]);
      return {
        user: { id: user.id, email: user.email, name, disabled: user.disabled },
        csrf: session.csrf,
        admin: user.admin,
        baseUrl: d.publicUrl(),
        usage,
        tokens,
        tokensLeftThisHour,
      };
    },

    elsewhere(request, state) {
      if (d.publicUrlConfigured) return null;
      const canonical = new URL(d.publicUrl());
      if (request.headers.get("host") === canonical.host) return null;
      return new Response(null, {
        status: 302,
        headers: { ...state.base, Location: `${canonical.origin}${state.path}`, "Cache-Control": "no-store" },
      });
    },
  };
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
