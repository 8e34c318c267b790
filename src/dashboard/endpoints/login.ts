/** GET /auth/login: starts a sign-in at the identity provider, its pending state sealed in a cookie. */
import type { DashboardHandler } from "../../http/context.ts";
import { setCookie } from "../cookies.ts";
import type { OidcClient } from "../oidc-client.ts";
import { LOGIN_COOKIE, LOGIN_TTL_S, type DashboardContext } from "./context.ts";
import { errorText } from "./error-text.ts";
import { asPage } from "./page-failure.ts";

export const login = (c: DashboardContext): DashboardHandler =>
  asPage(c, async (request, state) => {
    const moved = c.elsewhere(request, state);
    if (moved) return moved;
    const client = c.d.signIn();
    if (!client)
      return c.html(
        state,
        { dev: c.d.dev, signedIn: null, notice: { kind: "error", text: "Sign-in is not configured on this server." } },
        404,
      );
    let begun: Awaited<ReturnType<OidcClient["begin"]>>;
    try {
      begun = await client.begin();
    } catch (err) {
      c.d.app.logger.error({ request_id: state.requestId, err: errorText(err) }, "identity provider discovery failed");
      return c.html(
        state,
        {
          dev: c.d.dev,
          signedIn: null,
          notice: { kind: "error", text: "The identity provider cannot be reached right now. Try again in a minute." },
        },
        503,
        { "Retry-After": "30" },
      );
    }
    const sealed = await c.d.loginSealer.seal(begun.pending);
    return new Response(null, {
      status: 302,
      headers: {
        ...state.base,
        Location: begun.url,
        "Cache-Control": "no-store",
        "Set-Cookie": setCookie(LOGIN_COOKIE, sealed, { secure: c.secure(), path: "/auth", maxAge: LOGIN_TTL_S }),
      },
    });
  });
