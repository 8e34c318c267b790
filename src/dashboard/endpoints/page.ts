/** GET /dashboard: the signed-in page, or the sign-in page with what to do next (a failure too: page-failure.ts). */
import type { DashboardHandler } from "../../http/context.ts";
import { readCookies } from "../cookies.ts";
import { isSessionId } from "../session-policy.ts";
import type { DashboardContext } from "./context.ts";
import { asPage } from "./page-failure.ts";

/** Said when the session cookie cannot be one of ours (cut short by a proxy, or set by something else), so the loop back to sign-in is explained. */
const NOT_OURS =
  "Your browser sent a session cookie this server did not issue (it is not a session id), so it was ignored. Sign in again; if this page comes back, clear this site's cookies.";

export const dashboardPage = (c: DashboardContext): DashboardHandler =>
  asPage(c, async (request, state) => {
    const moved = c.elsewhere(request, state);
    if (moved) return moved;
    const current = await c.currentSession(request);
    if (current) {
      state.userId = current.session.userId;
      return c.html(state, { dev: c.d.dev, signedIn: await c.signedInView(current.session), notice: null });
    }
    const sent = readCookies(request.headers.get("cookie"), c.sessionCookie());
    const hadCookie = sent.length > 0;
    const notice = hadCookie
      ? { kind: "info" as const, text: sent.some(isSessionId) ? "Your session has expired. Sign in again." : NOT_OURS }
      : c.d.signIn() === null
        ? {
            kind: "info" as const,
            text: "Sign-in is not configured on this server: the operator sets --oidc-issuer, --oidc-client-id and --oidc-client-secret (or runs serve --dev for the development sign-in).",
          }
        : null;
    return c.html(state, { dev: c.d.dev, signedIn: null, notice }, 200, hadCookie ? { "Set-Cookie": c.clearSession() } : {});
  });
