/** GET /dashboard/api/state: what the signed-in page shows (user, usage, tokens), for its refreshes. */
import type { DashboardHandler } from "../../http/context.ts";
import type { DashboardContext } from "./context.ts";

export const dashboardState =
  (c: DashboardContext): DashboardHandler =>
  async (request, state) => {
    const { session } = await c.requireSession(request);
    state.userId = session.userId;
    return c.json(request, state, await c.signedInView(session));
  };
