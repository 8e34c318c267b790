/** POST /dashboard/api/admin/users/:id/plan { plan }: moves the user to a plan (404 for an unknown user or plan). */
import { z } from "zod";
import type { DashboardHandler } from "../../../http/context.ts";
import type { DashboardContext } from "../context.ts";
import { consoleUserById } from "./console-user.ts";
import { jsonBody } from "./inputs.ts";

const Body = z.strictObject({ plan: z.string().min(1).max(64) });

export const userPlan =
  (c: DashboardContext): DashboardHandler =>
  async (request, state) => {
    const admin = await c.requireAdmin(request, true);
    state.userId = admin.user.id;
    const { plan } = await jsonBody(request, Body);
    const id = state.params.id ?? "";
    await c.d.admin.assignPlan(admin.actor, id, plan);
    return c.json(request, state, { user: await consoleUserById(c, id) });
  };
