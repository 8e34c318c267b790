/** GET /dashboard/api/admin/plans: every plan, `free` first, with its users. */
import type { DashboardHandler } from "../../../http/context.ts";
import type { DashboardContext } from "../context.ts";
import { planJson } from "./plan-json.ts";

export const adminPlans =
  (c: DashboardContext): DashboardHandler =>
  async (request, state) => {
    const { session } = await c.requireAdmin(request, false);
    state.userId = session.userId;
    return c.json(request, state, { plans: (await c.d.admin.plans(c.d.defaults)).map(planJson) });
  };
