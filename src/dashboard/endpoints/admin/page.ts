/** GET /dashboard/admin: the console's page for an admin; signed out, to the sign-in page; anyone else a 403 page. */
import type { DashboardHandler } from "../../../http/context.ts";
import { renderAdminPage } from "../../admin-page.ts";
import { type DashboardContext, NOT_ADMIN } from "../context.ts";
import { asPage } from "../page-failure.ts";

export const adminPage = (c: DashboardContext): DashboardHandler =>
  asPage(c, async (request, state) => {
    const moved = c.elsewhere(request, state);
    if (moved) return moved;
    const current = await c.currentSession(request);
    if (!current)
      return new Response(null, { status: 302, headers: { ...state.base, Location: "/dashboard", "Cache-Control": "no-store" } });
    state.userId = current.session.userId;
    const user = await c.userOf(current.session);
    const name = await c.d.sessions.identityName(user.id, current.session.issuer);
    const signedIn = { user: { id: user.id, email: user.email, name }, csrf: current.session.csrf, admin: user.admin };
    return c.page(
      state,
      (assets) => renderAdminPage({ dev: c.d.dev, signedIn, refused: user.admin ? undefined : `${NOT_ADMIN}.` }, assets),
      user.admin ? 200 : 403,
    );
  });
