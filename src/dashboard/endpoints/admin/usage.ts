/** GET /dashboard/api/admin/usage?days=30: requests per UTC day across users, the top users, refusals per code, refunds, 5xx, compute time. */
import type { DashboardHandler } from "../../../http/context.ts";
import type { DashboardContext } from "../context.ts";
import { queryInt } from "./inputs.ts";

export const adminUsage =
  (c: DashboardContext): DashboardHandler =>
  async (request, state) => {
    const { session } = await c.requireAdmin(request, false);
    state.userId = session.userId;
    const days = queryInt(new URL(request.url), "days", 1, 366, 30);
    const o = await c.d.usageOverview.overview(days, c.d.app.clock.now());
    const emails = new Map<string, string | null>();
    for (const u of new Set(o.topUsers.map((t) => t.user))) emails.set(u, (await c.d.auth.getUser(u))?.email ?? null);
    const ms = (n: number) => Math.round(n * 10) / 10;
    return c.json(request, state, {
      days: o.days.map((d) => ({
        day: d.day,
        admitted: d.admitted,
        refused: d.refused,
        uncounted: d.uncounted,
        refunded: d.refunded,
        server_errors: d.serverErrors,
      })),
      top_users: o.topUsers.map((t) => ({
        user: t.user,
        email: emails.get(t.user) ?? null,
        admitted: t.admitted,
        compute_ms: ms(t.computeMs),
      })),
      refused_by_code: o.refusedByCode,
      compute_by_user: o.computeByUser.map((t) => ({ user: t.user, compute_ms: ms(t.computeMs) })),
      totals: {
        admitted: o.totals.admitted,
        refused: o.totals.refused,
        uncounted: o.totals.uncounted,
        refunded: o.totals.refunded,
        server_errors: o.totals.serverErrors,
        compute_ms: ms(o.totals.computeMs),
      },
    });
  };
