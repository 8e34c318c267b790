/** GET /dashboard/api/admin/users?q=&offset=&limit=: users whose id, e-mail or sign-in name contains q, a page at a time. */
import type { DashboardHandler } from "../../../http/context.ts";
import type { DashboardContext } from "../context.ts";
import { consoleUsers } from "./console-user.ts";
import { queryInt, queryText } from "./inputs.ts";

export const MAX_PAGE = 200;

export const adminUsers =
  (c: DashboardContext): DashboardHandler =>
  async (request, state) => {
    const { session } = await c.requireAdmin(request, false);
    state.userId = session.userId;
    const url = new URL(request.url);
    const q = queryText(url, "q", 200) ?? "";
    const offset = queryInt(url, "offset", 0, 1_000_000, 0);
    const limit = queryInt(url, "limit", 1, MAX_PAGE, 50);
    const found = await c.d.admin.searchUsers(q, { limit, offset });
    return c.json(request, state, { users: await consoleUsers(c, found.users), total: found.total, offset, limit });
  };
