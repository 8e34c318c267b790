/**
 * POST /dashboard/api/admin/users/:id/limits { per_minute?, per_day? }: the user's own limits over
 * its plan's; a field null goes back to the plan's, an absent one is kept.
 */
import { z } from "zod";
import type { DashboardHandler } from "../../../http/context.ts";
import type { DashboardContext } from "../context.ts";
import { consoleUserById } from "./console-user.ts";
import { jsonBody } from "./inputs.ts";
import { LIMIT } from "./limits-schema.ts";

const Body = z
  .strictObject({ per_minute: LIMIT.nullable().optional(), per_day: LIMIT.nullable().optional() })
  .refine((b) => b.per_minute !== undefined || b.per_day !== undefined, { message: "give per_minute and/or per_day (null: the plan's)" });

export const userLimits =
  (c: DashboardContext): DashboardHandler =>
  async (request, state) => {
    const admin = await c.requireAdmin(request, true);
    state.userId = admin.user.id;
    const body = await jsonBody(request, Body);
    const id = state.params.id ?? "";
    await c.d.admin.setLimits(admin.actor, id, { perMinute: body.per_minute, perDay: body.per_day });
    return c.json(request, state, { user: await consoleUserById(c, id) });
  };
