/** Plan names and the default plan (docs/operator.md § Plans). */
import type { Limits } from "../metering/windows.ts";
import { StatusError } from "../status-error.ts";
import type { PlanRow } from "./admin-port.ts";

/** The default plan: a user with no plan is on it, and without a row of its own it is the configured defaults (1/min, 30/day unless set). */
export const FREE = "free";

const PLAN_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export function checkPlanName(name: string): void {
  if (!PLAN_NAME.test(name))
    throw new StatusError(
      400,
      "BAD_REQUEST",
      `plan name '${name.slice(0, 80)}' must be 1-64 of [a-z0-9._-], starting with a letter or digit`,
    );
}

export interface Plan {
  name: string;
  perMinute: number;
  perDay: number;
  /** False for `free` while it has no row: its limits are the configured defaults. */
  stored: boolean;
  /** When its row was last written (epoch ms); null without a row. */
  updatedAt: number | null;
  /** Users on the plan (filled where counted). */
  users?: number;
}

/** Every plan, `free` first (its row, or the defaults), then by name. */
export function plansWithFree(rows: PlanRow[], defaults: Limits): Plan[] {
  const free = rows.find((r) => r.name === FREE);
  const out: Plan[] = [free ? { ...pick(free), stored: true } : { name: FREE, ...defaults, stored: false, updatedAt: null }];
  for (const r of rows) if (r.name !== FREE) out.push({ ...pick(r), stored: true });
  return out;
}

const pick = (r: PlanRow) => ({ name: r.name, perMinute: r.perMinute, perDay: r.perDay, updatedAt: r.updatedAt });
