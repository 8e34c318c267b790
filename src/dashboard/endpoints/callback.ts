/**
 * GET /auth/callback: finishes a sign-in. Only a callback carrying a pending sign-in of ours costs
 * anything; those are limited per client (the proxy's X-Forwarded-For when it is trusted); a pending
 * sign-in is spent once for the whole deployment (the store) whatever the outcome; every failure is
 * a page saying what to do, and the provider's own error text goes only to the log, counted.
 */
import { countedLog } from "../../counted-log.ts";
import { peerAddress } from "../../http/client-address.ts";
import type { DashboardHandler } from "../../http/context.ts";
import { readCookies, setCookie } from "../cookies.ts";
import type { OidcClient, PendingSignIn } from "../oidc-client.ts";
import { CallbackRate } from "../callback-rate.ts";
import { LOGIN_COOKIE, type DashboardContext } from "./context.ts";
import { errorText } from "./error-text.ts";
import { asPage, failurePage } from "./page-failure.ts";

/** Busy before the sign-in was spent: the same callback can simply be asked again. */
const BUSY_BEFORE =
  "The sign-in could not be finished: the service's database did not answer in time. Reload this page in a few seconds to finish signing in.";
/** Busy after the provider's code was used: that code cannot be used twice, so the sign-in starts over. */
const BUSY_AFTER =
  "The identity provider accepted your sign-in, but the service's database did not answer in time, so no session was started. Sign in again in a few seconds.";

export function callback(c: DashboardContext): DashboardHandler {
  const { d } = c;
  const callbacks = new CallbackRate(() => d.app.clock.now());
  const clientOf = d.app.clientAddress ?? peerAddress;
  // Anyone can put an error in this URL, as often as they like: the log gets one line a minute with a count.
  const providerRefused = countedLog(d.app.logger, "warn", "the identity provider refused the sign-in", d.app.clock);
  const exchangeRefused = countedLog(d.app.logger, "warn", "sign-in callback refused", d.app.clock);
  return asPage(c, async (request, state) => {
    const clearLogin = setCookie(LOGIN_COOKIE, "", { secure: c.secure(), path: "/auth", maxAge: 0 });
    const fail = (text: string, status = 400, headers: Record<string, string> = {}) =>
      c.html(state, { dev: d.dev, signedIn: null, notice: { kind: "error", text } }, status, { "Set-Cookie": clearLogin, ...headers });
    const client = d.signIn();
    if (!client) return fail("Sign-in is not configured on this server.", 404);
    const query = new URL(request.url).search;
    const params = new URLSearchParams(query);
    if (params.has("error")) {
      // The provider's own words go to the log, never onto our page: anyone can put any text in this URL.
      providerRefused.note({
        request_id: state.requestId,
        error: (params.get("error") ?? "").slice(0, 100),
        error_description: (params.get("error_description") ?? "").slice(0, 200),
      });
      return fail("The identity provider did not complete the sign-in. Sign in again; if it keeps failing, ask your administrator.");
    }
    // Before the limit: a callback without a pending sign-in of ours costs nothing, so cookieless
    // callbacks from anyone cannot use up the limit of the address real users share.
    const pending = await openPending(c, request);
    if (!pending) return fail("This sign-in expired or was started in another browser. Sign in again.");
    const wait = callbacks.take(clientOf(request, state.server) ?? "unknown");
    if (wait > 0) return fail(`Too many sign-in attempts from this address. Try again in ${wait}s.`, 429, { "Retry-After": String(wait) });
    // Single use for the deployment, whatever the outcome: a second callback with this cookie, on
    // any instance, never reaches the provider. Unspent when the database did not answer.
    let fresh: boolean;
    try {
      fresh = await d.sessions.spendSignIn(pending.state);
    } catch (err) {
      return failurePage(c, state, err, { unavailable: BUSY_BEFORE });
    }
    if (!fresh) return fail("This sign-in was already used. Sign in again.");
    let identity: Awaited<ReturnType<OidcClient["finish"]>>;
    try {
      identity = await client.finish(new URL(`${d.publicUrl()}/auth/callback${query}`), pending);
    } catch (err) {
      exchangeRefused.note({ request_id: state.requestId, err: errorText(err) });
      return fail("The sign-in could not be verified. Sign in again.");
    }
    let sessionId: string;
    try {
      const userId = await d.sessions.signIn(identity);
      state.userId = userId;
      sessionId = (await d.sessions.create(userId, identity.issuer)).id;
    } catch (err) {
      return failurePage(c, state, err, { unavailable: BUSY_AFTER, headers: { "Set-Cookie": clearLogin } });
    }
    // The callback URL carries the authorization code: it is never sent on as a Referer.
    const headers = new Headers({
      ...state.base,
      Location: "/dashboard",
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
    });
    headers.append("Set-Cookie", clearLogin);
    headers.append("Set-Cookie", setCookie(c.sessionCookie(), sessionId, { secure: c.secure(), path: "/" }));
    return new Response(null, { status: 303, headers });
  });
}

/** The first same-named login cookie that opens (another path's stale one may come first). */
async function openPending(c: DashboardContext, request: Request): Promise<PendingSignIn | null> {
  for (const sealed of readCookies(request.headers.get("cookie"), LOGIN_COOKIE)) {
    const pending = await c.d.loginSealer.open(sealed);
    if (pending) return pending;
  }
  return null;
}
