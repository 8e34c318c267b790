/** GET /dashboard: the signed-in page, or the sign-in page with what to do next (a failure too: page-failure.ts). */
import type { DashboardHandler } from "../../http/context.ts";
import { readCookie } from "../cookies.ts";
import type { DashboardContext } from "./context.ts";
import { asPage } from "./page-failure.ts";

export const dashboardPage = (c: DashboardContext): DashboardHandler =>
  asPage(c, async (request, state) => {
    const moved = c.elsewhere(request, state);
    if (moved) return moved;
    const current = await c.currentSession(request);
    if (current) {
      state.userId = current.session.userId;
      return c.html(state, { dev: c.d.dev, signedIn: await c.signedInView(current.session), notice: null });
    }
    const hadCookie = readCookie(request.headers.get("cookie"), c.sessionCookie()) !== null;
    const notice = hadCookie
      ? { kind: "info" as const, text: "Your session has expired. Sign in again." }
      : c.d.signIn() === null
        ? {
            kind: "info" as const,
            text: "Sign-in is not configured on this server: the operator sets --oidc-issuer, --oidc-client-id and --oidc-client-secret (or runs serve --dev for the development sign-in).",
          }
        : null;
    return c.html(state, { dev: c.d.dev, signedIn: null, notice }, 200, hadCookie ? { "Set-Cookie": c.clearSession() } : {});
  });
