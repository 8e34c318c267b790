/** The console's Plans section as markup, and the plan form's checks. Pure, for the unit tests. */
import { count, utcSecond } from "./admin-format.ts";
import type { AdminPlan } from "./admin-types.ts";
import { escapeHtml as e } from "./html.ts";

/** As the server's rule (src/admin/plans.ts): said here first, so a typo costs no round trip. */
const PLAN_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export function plansTableHtml(plans: AdminPlan[]): string {
  const rows = plans
    .map(
      (p) => `<tr data-plan="${e(p.name)}">
<th scope="row">${e(p.name)}</th>
<td>${count(p.per_minute)}/min</td>
<td>${count(p.per_day)}/day</td>
<td>${count(p.users)}</td>
<td>${p.updated_at ? e(utcSecond(p.updated_at)) : `<span class="muted">built in</span>`}</td>
<td><button type="button" class="button link" data-edit-plan="${e(p.name)}" aria-label="Edit plan ${e(p.name)}">Edit</button></td>
</tr>`,
    )
    .join("\n");
  return `<caption>Plans and the users on each</caption>
<thead><tr><th scope="col">Plan</th><th scope="col">Per minute</th><th scope="col">Per day</th><th scope="col">Users</th><th scope="col">Changed</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows}</tbody>`;
}

export type PlanInput = { name: string; per_minute: number; per_day: number };

/** The form's fields as the POST's body, or the sentences saying what to fix (`creating`: the name is checked too). */
export function readPlanForm(
  fields: { name: string; perMinute: string; perDay: string },
  creating: boolean,
): { ok: true; plan: PlanInput } | { ok: false; messages: string[] } {
  const messages: string[] = [];
  const name = fields.name.trim();
  if (creating && !PLAN_NAME.test(name))
    messages.push("The name must be 1-64 of a-z, 0-9, '.', '_' and '-', starting with a letter or digit.");
  const whole = (text: string, what: string) => {
    const t = text.trim();
    if (/^\d{1,9}$/.test(t)) return Number(t);
    messages.push(`${what} must be a whole number (0 or more).`);
    return 0;
  };
  const perMinute = whole(fields.perMinute, "Requests per minute");
  const perDay = whole(fields.perDay, "Requests per day");
  return messages.length ? { ok: false, messages } : { ok: true, plan: { name, per_minute: perMinute, per_day: perDay } };
}
