/** GET /dashboard/api/admin/audit?before_id=&target=&actor=&limit=: the admin audit log, newest first, a page at a time. */
import type { DashboardHandler } from "../../../http/context.ts";
import { isoTime } from "../../../clock.ts";
import type { DashboardContext } from "../context.ts";
import { queryInt, queryText } from "./inputs.ts";
import { MAX_PAGE } from "./users.ts";

/** Before/after as written (JSON); a value that is not JSON is shown as its text. */
const parsed = (s: string | null): unknown => {
  if (s === null) return null;
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
};

export const adminAudit =
  (c: DashboardContext): DashboardHandler =>
  async (request, state) => {
    const { session } = await c.requireAdmin(request, false);
    state.userId = session.userId;
    const url = new URL(request.url);
    const limit = queryInt(url, "limit", 1, MAX_PAGE, 50);
    const beforeId = queryInt(url, "before_id", 1, Number.MAX_SAFE_INTEGER, 0) || undefined;
    const entries = await c.d.admin.audit({
      limit: limit + 1,
      beforeId,
      target: queryText(url, "target", 200),
      actor: queryText(url, "actor", 200),
    });
    const page = entries.slice(0, limit);
    return c.json(request, state, {
      entries: page.map((e) => ({
        id: e.id,
        ts: isoTime(e.ts),
        actor: e.actor,
        action: e.action,
        target: e.target,
        before: parsed(e.before),
        after: parsed(e.after),
      })),
      next_before_id: entries.length > limit ? page.at(-1)!.id : null,
    });
  };
