/**
 * GET /auth/callback: finishes a sign-in. Only a callback carrying a pending sign-in of ours costs
 * anything; those are limited per client (the proxy's X-Forwarded-For when it is trusted). A pending
 * sign-in is spent once for the whole deployment (the store) whatever the outcome, and the
 * provider's own error text goes only to the log.
 */
import { peerAddress } from "../../http/client-address.ts";
import type { DashboardHandler } from "../../http/context.ts";
import { readCookie, setCookie } from "../cookies.ts";
import type { OidcClient } from "../oidc-client.ts";
import { CallbackRate } from "../callback-rate.ts";
import { LOGIN_COOKIE, type DashboardContext } from "./context.ts";
import { errorText } from "./error-text.ts";

export function callback(c: DashboardContext): DashboardHandler {
  const { d } = c;
  const callbacks = new CallbackRate(() => d.app.clock.now());
  const clientOf = d.app.clientAddress ?? peerAddress;
  return async (request, state) => {
    const clearLogin = setCookie(LOGIN_COOKIE, "", { secure: c.secure(), path: "/auth", maxAge: 0 });
    const fail = (text: string, status = 400) =>
      c.html(state, { dev: d.dev, signedIn: null, notice: { kind: "error", text } }, status, { "Set-Cookie": clearLogin });
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
    // Before the limit: a callback without a pending sign-in of ours costs nothing, so cookieless
    // callbacks from anyone cannot use up the limit of the address real users share.
    const pending = await d.loginSealer.open(readCookie(request.headers.get("cookie"), LOGIN_COOKIE));
    if (!pending) return fail("This sign-in expired or was started in another browser. Sign in again.");
    const wait = callbacks.take(clientOf(request, state.server) ?? "unknown");
    if (wait > 0) {
      return c.html(
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
    // Single use for the deployment, whatever the outcome: a second callback with this cookie, on
    // any instance, never reaches the provider.
    if (!(await d.sessions.spendSignIn(pending.state))) return fail("This sign-in was already used. Sign in again.");
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
    headers.append("Set-Cookie", setCookie(c.sessionCookie(), id, { secure: c.secure(), path: "/" }));
    return new Response(null, { status: 303, headers });
  };
}
