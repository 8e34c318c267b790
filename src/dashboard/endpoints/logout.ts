/**
 * POST /auth/logout: ends the session (a form post with the CSRF token), or says it did not: with
 * the database busy the session stays valid, so the page says so and offers Sign out again.
 */
import type { DashboardHandler } from "../../http/context.ts";
import { readBody } from "../request-body.ts";
import type { DashboardContext } from "./context.ts";
import { asPage, failurePage } from "./page-failure.ts";

const NOT_ENDED = "Sign-out did not finish: the service's database did not answer in time, so your session is still valid.";

export const logout = (c: DashboardContext): DashboardHandler =>
  asPage(c, async (request, state) => {
    const form = new URLSearchParams(await readBody(request));
    const csrf = form.get("csrf");
    try {
      const { id } = await c.authorizeChange(request, csrf);
      await c.d.sessions.destroy(id);
    } catch (err) {
      return failurePage(c, state, err, { unavailable: NOT_ENDED, retrySignOut: csrf });
    }
    return new Response(null, {
      status: 303,
      headers: { ...state.base, Location: "/dashboard", "Cache-Control": "no-store", "Set-Cookie": c.clearSession() },
    });
  });
