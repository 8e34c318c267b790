/** POST /dashboard/api/admin/users/:id/revoke-tokens {}: revokes every live token of the user at once. */
import { z } from "zod";
import type { DashboardHandler } from "../../../http/context.ts";
import type { DashboardContext } from "../context.ts";
import { consoleUserById } from "./console-user.ts";
import { jsonBody } from "./inputs.ts";

const Body = z.strictObject({});

export const revokeUserTokens =
  (c: DashboardContext): DashboardHandler =>
  async (request, state) => {
    const admin = await c.requireAdmin(request, true);
    state.userId = admin.user.id;
    await jsonBody(request, Body);
    const id = state.params.id ?? "";
    const revoked = await c.d.admin.revokeTokensOf(admin.actor, id);
    return c.json(request, state, { user: await consoleUserById(c, id), revoked });
  };
