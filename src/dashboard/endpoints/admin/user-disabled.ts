/**
 * POST /dashboard/api/admin/users/:id/disable and …/enable {}: a disabled user's tokens are refused
 * (403). An admin may not disable itself here, so the console cannot lock out its last admin: the
 * CLI can (409).
 */
import { z } from "zod";
import type { DashboardHandler } from "../../../http/context.ts";
import { HttpError } from "../../../http/http-error.ts";
import type { DashboardContext } from "../context.ts";
import { consoleUserById } from "./console-user.ts";
import { jsonBody } from "./inputs.ts";

const Body = z.strictObject({});

export const userDisabled =
  (c: DashboardContext, disabled: boolean): DashboardHandler =>
  async (request, state) => {
    const admin = await c.requireAdmin(request, true);
    state.userId = admin.user.id;
    await jsonBody(request, Body);
    const id = state.params.id ?? "";
    if (disabled && id === admin.user.id)
      throw new HttpError(
        409,
        "CONFLICT",
        "you cannot disable your own account from the console; use the CLI: graph-stats user disable USER",
      );
    await c.d.admin.setDisabled(admin.actor, id, disabled);
    return c.json(request, state, { user: await consoleUserById(c, id) });
  };
