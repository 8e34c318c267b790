/**
 * The console's Users section as markup: the search results as a table (one Manage button a row)
 * and the chosen user's panel with its actions. Pure, so the unit tests hold the wording.
 */
import { count, countsText, sourceWord, userLabel } from "./admin-format.ts";
import type { AdminPlan, AdminUser } from "./admin-types.ts";
import { escapeHtml as e } from "./html.ts";

/** `1–50 of 312 users`, `No user matches "x".`, `3 users`. */
export function usersCountText(page: { total: number; offset: number; shown: number }, q: string): string {
  if (page.total === 0) return q ? `No user matches "${q}".` : "No users yet.";
  const noun = page.total === 1 ? "user" : "users";
  if (page.offset === 0 && page.shown === page.total) return `${count(page.total)} ${noun}${q ? ` matching "${q}"` : ""}`;
  return `${count(page.offset + 1)}–${count(page.offset + page.shown)} of ${count(page.total)} ${noun}${q ? ` matching "${q}"` : ""}`;
}

/** One limit: `5/min · plan`. */
export function limitCell(n: number, unit: "min" | "day", source: AdminUser["limits"]["source_per_day"]): string {
  return `${count(n)}/${unit} <span class="source-tag">${e(sourceWord(source))}</span>`;
}

function statusCell(u: AdminUser): string {
  const tags = [u.disabled ? `<span class="state-tag off">disabled</span>` : `<span class="state-tag on">active</span>`];
  if (u.admin) tags.push(`<span class="state-tag admin">admin</span>`);
  return tags.join(" ");
}

export function usersTableHtml(users: AdminUser[], selected: string | null): string {
  const rows = users
    .map((u) => {
      const label = userLabel(u);
      const sub = [u.email && u.email !== label ? u.email : null, u.id !== label ? u.id : null].filter(Boolean);
      return `<tr data-user="${e(u.id)}"${u.id === selected ? ` class="selected" aria-current="true"` : ""}>
<th scope="row"><span class="cell-main">${e(label)}</span>${sub.map((s) => `<span class="cell-sub">${e(s)}</span>`).join("")}</th>
<td>${e(u.plan)}</td>
<td>${limitCell(u.limits.per_minute, "min", u.limits.source_per_minute)}</td>
<td>${limitCell(u.limits.per_day, "day", u.limits.source_per_day)}</td>
<td>${statusCell(u)}</td>
<td>${count(u.live_tokens)}</td>
<td>${e(countsText(u.today))}</td>
<td>${e(countsText(u.last_30_days))}</td>
<td><button type="button" class="button link" data-manage="${e(u.id)}" aria-label="Manage ${e(label)}">Manage</button></td>
</tr>`;
    })
    .join("\n");
  return `<caption>Users, with the limits in force and where each comes from (own, plan or default); requests admitted (refused)</caption>
<thead><tr><th scope="col">User</th><th scope="col">Plan</th><th scope="col">Per minute</th><th scope="col">Per day</th><th scope="col">State</th><th scope="col">Live tokens</th><th scope="col">Today</th><th scope="col">Last 30 days</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${rows}</tbody>`;
}

/** A limit field's placeholder: the value it falls back to when empty, known unless the user's own is in force. */
function inherited(n: number, source: AdminUser["limits"]["source_per_day"]): string {
  return source === "user" ? "the plan's" : `${source === "plan" ? "plan" : "default"}: ${count(n)}`;
}

function planOptions(plans: AdminPlan[], current: string): string {
  const names = plans.map((p) => p.name);
  if (!names.includes(current)) names.unshift(current);
  return names.map((n) => `<option value="${e(n)}"${n === current ? " selected" : ""}>${e(n)}</option>`).join("");
}

/**
 * The chosen user's panel: its plan, its own limits (empty = the plan's), Disable or Enable, and
 * Revoke tokens, which asks first (`confirmingRevoke`) as revoking every token cannot be undone.
 */
export function userPanelHtml(u: AdminUser, plans: AdminPlan[], confirmingRevoke = false): string {
  const label = e(userLabel(u));
  const own = (v: number | null) => (v === null ? "" : String(v));
  const revoke = confirmingRevoke
    ? `<button type="button" class="button danger confirm" data-action="revoke-confirm">Confirm revoking ${count(u.live_tokens)} token${u.live_tokens === 1 ? "" : "s"}</button>
<button type="button" class="button secondary" data-action="revoke-cancel">Cancel</button>`
    : `<button type="button" class="button danger" data-action="revoke"${u.live_tokens === 0 ? " disabled" : ""}>Revoke all tokens</button>`;
  return `<h3 id="user-panel-heading">${label}</h3>
<p class="caption">${e(u.id)}${u.email ? ` · ${e(u.email)}` : ""}${u.admin ? " · admin" : ""}</p>
<div class="panel-grid">
<form class="panel-block" data-form="plan">
<label for="user-plan">Plan</label>
<div class="copy-row">
<select id="user-plan">${planOptions(plans, u.plan)}</select>
<button type="submit" class="button primary">Change plan</button>
</div>
</form>
<form class="panel-block" data-form="limits" novalidate>
<div class="fields two">
<div class="field"><label for="user-per-minute">Own limit per minute</label><input id="user-per-minute" type="number" min="0" step="1" inputmode="numeric" value="${own(u.own_limits.per_minute)}" placeholder="${e(inherited(u.limits.per_minute, u.limits.source_per_minute))}"></div>
<div class="field"><label for="user-per-day">Own limit per day</label><input id="user-per-day" type="number" min="0" step="1" inputmode="numeric" value="${own(u.own_limits.per_day)}" placeholder="${e(inherited(u.limits.per_day, u.limits.source_per_day))}"></div>
</div>
<p class="field-hint">Empty means the plan's limit.</p>
<div class="form-actions">
<button type="submit" class="button primary">Save limits</button>
<button type="button" class="button secondary" data-action="plan-limits">Use the plan's limits</button>
</div>
</form>
<div class="panel-block">
<p class="panel-label">Account</p>
<div class="form-actions">
${u.disabled ? `<button type="button" class="button primary" data-action="enable">Enable</button>` : `<button type="button" class="button danger" data-action="disable">Disable</button>`}
${revoke}
</div>
<p class="field-hint">${u.disabled ? "Disabled: its tokens are refused and it cannot generate new ones." : `${count(u.live_tokens)} live token${u.live_tokens === 1 ? "" : "s"}.`}</p>
</div>
</div>
<p id="user-status" class="message" role="status"></p>
<p id="user-error" class="message error" role="alert"></p>`;
}
