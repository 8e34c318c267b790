/**
 * A user as the console shows it (the console's contract: snake_case): its plan, the limits in
 * force and where each comes from, its own limits, flags, live tokens, and today's and the last 30
 * UTC days' admitted, refused and uncounted requests. A page of users costs one usage read.
 */
import type { UserSummary } from "../../../admin/admin-store.ts";
import { FREE } from "../../../admin/plans.ts";
import type { UserUsage } from "../../../metering/usage-overview.ts";
import type { Limits } from "../../../metering/windows.ts";
import type { DashboardContext } from "../context.ts";

const source = (own: number | null, plan: number | null) => (own !== null ? "user" : plan !== null ? "plan" : "default");

const NONE = { admitted: 0, refused: 0, uncounted: 0 };

export function consoleUser(u: UserSummary, usage: UserUsage | undefined, defaults: Limits) {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    plan: u.plan ?? FREE,
    limits: {
      per_minute: u.perMinute ?? u.planPerMinute ?? defaults.perMinute,
      per_day: u.perDay ?? u.planPerDay ?? defaults.perDay,
      source_per_minute: source(u.perMinute, u.planPerMinute),
      source_per_day: source(u.perDay, u.planPerDay),
    },
    own_limits: { per_minute: u.perMinute, per_day: u.perDay },
    disabled: u.disabled,
    admin: u.admin,
    live_tokens: u.liveTokens,
    today: usage?.today ?? NONE,
    last_30_days: usage?.last30Days ?? NONE,
  };
}

export type ConsoleUser = ReturnType<typeof consoleUser>;

/** Users with their usage, read once for all of them. */
export async function consoleUsers(c: DashboardContext, users: UserSummary[]): Promise<ConsoleUser[]> {
  const usage = await c.d.usageOverview.ofUsers(
    users.map((u) => u.id),
    c.d.app.clock.now(),
  );
  return users.map((u) => consoleUser(u, usage.get(u.id), c.d.defaults));
}

/** One user as the console shows it, read again after an action. */
export async function consoleUserById(c: DashboardContext, id: string): Promise<ConsoleUser> {
  const [user] = await consoleUsers(c, [await c.d.admin.userSummary(id)]);
  return user!;
}
