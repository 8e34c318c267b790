/** A plan as the console shows it (snake_case; `updated_at` null for the built-in free plan without a row). */
import type { Plan } from "../../../admin/plans.ts";
import { isoTime } from "../../../clock.ts";

export const planJson = (p: Plan) => ({
  name: p.name,
  per_minute: p.perMinute,
  per_day: p.perDay,
  users: p.users ?? 0,
  updated_at: p.updatedAt === null ? null : isoTime(p.updatedAt),
});
