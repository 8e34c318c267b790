/** POST /dashboard/api/query: the user's own query, metered exactly like a live call with a token. */
import { assertEnabled, effectiveLimits } from "../../auth/index.ts";
import type { AuthedUser } from "../../http/auth-gate.ts";
import type { DashboardHandler } from "../../http/context.ts";
import { handleChart } from "../../http/routes/chart.ts";
import { queryFromBody, readBody } from "../request-body.ts";
import type { DashboardContext } from "./context.ts";

export const userQuery =
  (c: DashboardContext): DashboardHandler =>
  async (request, state) => {
    const { session } = await c.authorizeChange(request, request.headers.get("x-csrf-token"));
    const query = queryFromBody(await readBody(request));
    return handleChart(c.d.app, request, state, {
      query,
      authenticate: async (): Promise<AuthedUser> => {
        const user = await c.userOf(session);
        assertEnabled(user.id, user);
        return { id: user.id, limits: effectiveLimits(user, c.d.defaults), plan: user.plan ?? "free" };
      },
    });
  };
