/**
 * One user as an operator sees it, for `user show` and the console: its record, where each limit
 * comes from (its own, its plan's or the defaults), live tokens and admitted requests today and
 * over the last 30 UTC days (usage_days, one primary-key range read).
 */
import type { UserRecord } from "../auth/auth-store.ts";
import type { AccountStore } from "../dashboard/account-store.ts";
import { DAY_MS, type Limits, utcDayStart } from "../metering/windows.ts";
import { FREE } from "./plans.ts";

export interface UserView {
  id: string;
  email: string | null;
  plan: string;
  per_minute: number;
  per_day: number;
  /** Where each limit comes from: `own`, `plan` (a plan's row) or `default` (the configured defaults). */
  per_minute_from: "own" | "plan" | "default";
  per_day_from: "own" | "plan" | "default";
  disabled: boolean;
  admin: boolean;
  created_at: string;
  live_tokens: number;
  requests_today: number;
  requests_30_days: number;
}

const from = (own: number | null, plan: number | null) => (own !== null ? "own" : plan !== null ? "plan" : "default");

export async function userView(user: UserRecord, account: AccountStore, defaults: Limits, now: number): Promise<UserView> {
  const today = utcDayStart(now);
  const [tokens, days] = await Promise.all([account.liveTokens(user.id, now), account.usageDays(user.id, today - 29 * DAY_MS)]);
  return {
    id: user.id,
    email: user.email,
    plan: user.plan ?? FREE,
    per_minute: user.perMinute ?? user.planPerMinute ?? defaults.perMinute,
    per_day: user.perDay ?? user.planPerDay ?? defaults.perDay,
    per_minute_from: from(user.perMinute, user.planPerMinute),
    per_day_from: from(user.perDay, user.planPerDay),
    disabled: user.disabled,
    admin: user.admin,
    created_at: new Date(user.createdAt).toISOString(),
    live_tokens: tokens.length,
    requests_today: days.filter((d) => d.day === today).reduce((n, d) => n + d.admitted, 0),
    requests_30_days: days.reduce((n, d) => n + d.admitted, 0),
  };
}
