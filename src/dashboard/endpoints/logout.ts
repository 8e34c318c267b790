/** POST /auth/logout: ends the session (a form post with the CSRF token). */
import type { DashboardHandler } from "../../http/context.ts";
import { readBody } from "../request-body.ts";
import type { DashboardContext } from "./context.ts";

export const logout =
  (c: DashboardContext): DashboardHandler =>
  async (request, state) => {
    const form = new URLSearchParams(await readBody(request));
    const { id } = await c.authorizeChange(request, form.get("csrf"));
    await c.d.sessions.destroy(id);
    return new Response(null, {
      status: 303,
      headers: { ...state.base, Location: "/dashboard", "Cache-Control": "no-store", "Set-Cookie": c.clearSession() },
    });
  };
