/** POST /dashboard/api/admin/plans/:name { per_minute?, per_day? }: changes a plan's limits (404 when it does not exist). */
import { z } from "zod";
import type { DashboardHandler } from "../../../http/context.ts";
import type { DashboardContext } from "../context.ts";
import { jsonBody } from "./inputs.ts";
import { LIMIT } from "./limits-schema.ts";
import { planJson } from "./plan-json.ts";

const Body = z
  .strictObject({ per_minute: LIMIT.optional(), per_day: LIMIT.optional() })
  .refine((b) => b.per_minute !== undefined || b.per_day !== undefined, { message: "give per_minute and/or per_day" });

export const editPlan =
  (c: DashboardContext): DashboardHandler =>
  async (request, state) => {
    const admin = await c.requireAdmin(request, true);
    state.userId = admin.user.id;
    const body = await jsonBody(request, Body);
    const name = state.params.name ?? "";
    await c.d.admin.setPlan(admin.actor, name, { perMinute: body.per_minute, perDay: body.per_day }, c.d.defaults);
    const plan = (await c.d.admin.plans(c.d.defaults)).find((p) => p.name === name)!;
    return c.json(request, state, { plan: planJson(plan) });
  };
