/** POST /dashboard/api/admin/plans { name, per_minute, per_day }: a new plan (409 when it exists). */
import { z } from "zod";
import type { DashboardHandler } from "../../../http/context.ts";
import type { DashboardContext } from "../context.ts";
import { jsonBody } from "./inputs.ts";
import { LIMIT } from "./limits-schema.ts";
import { planJson } from "./plan-json.ts";

const Body = z.strictObject({ name: z.string().max(64), per_minute: LIMIT, per_day: LIMIT });

export const createPlan =
  (c: DashboardContext): DashboardHandler =>
  async (request, state) => {
    const admin = await c.requireAdmin(request, true);
    state.userId = admin.user.id;
    const body = await jsonBody(request, Body);
    const plan = await c.d.admin.createPlan(admin.actor, body.name, { perMinute: body.per_minute, perDay: body.per_day });
    return c.json(request, state, { plan: planJson({ ...plan, users: 0 }) }, 201);
  };
