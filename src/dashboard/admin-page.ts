/**
 * The admin console's page (GET /dashboard/admin, docs/dashboard.md § Console): the sections'
 * frames, rendered by the server; the browser script (web/admin-main.ts) fills them from
 * /dashboard/api/admin/* and wires the actions. No inline script or style, as on /dashboard.
 */
import { type PageAssets, documentHtml, siteHeader } from "./pages.ts";
import type { AdminPageView } from "./view-model.ts";
import { escapeHtml as e } from "./web/html.ts";
import { STALE_AFTER_DAYS } from "./web/data-model.ts";

/** The complete HTML5 document for `/dashboard/admin`, for a signed-in admin. */
export function renderAdminPage(view: AdminPageView, assets: PageAssets): string {
  return documentHtml({
    title: "Admin console · graph-stats",
    assets,
    header: siteHeader(view.dev, view, { href: "/dashboard", text: "Dashboard" }),
    main: `<h1 class="console-title">Admin console</h1>
<noscript><p class="message error">The console needs JavaScript; the <code>graph-stats user</code>, <code>plan</code>, <code>usage</code> and <code>audit</code> commands do the same from a shell.</p></noscript>
${usersSection()}
${plansSection()}
${usageSection()}
${universesSection()}
${auditSection()}`,
    state: { id: "gs-admin", value: view },
  });
}

/**
 * The page a signed-in user who is not an admin gets (with 403): the reason, and the way back.
 * No #gs-admin state, so the script starts nothing; the server refuses the APIs on its own.
 */
export function renderAdminRefused(view: AdminPageView, reason: string, assets: PageAssets): string {
  return documentHtml({
    title: "Admin console · graph-stats",
    assets,
    header: siteHeader(view.dev, view, { href: "/dashboard", text: "Dashboard" }),
    notice: `<div class="notice notice-error" role="alert"><p>${e(reason)}</p></div>`,
    main: `<section class="card hero" aria-labelledby="admin-heading">
<h1 id="admin-heading">Admin console</h1>
<p>This account may not use the admin console.</p>
<p><a class="button secondary" href="/dashboard">Back to the dashboard</a></p>
</section>`,
    state: { id: "gs-refused", value: null },
  });
}

function usersSection(): string {
  return `<section class="card" id="admin-users" aria-labelledby="admin-users-heading">
<h2 id="admin-users-heading">Users</h2>
<form id="user-search" class="search-row" role="search">
<label for="user-q">Search users</label>
<div class="copy-row">
<input id="user-q" type="search" maxlength="200" placeholder="id, name or e-mail" autocomplete="off" spellcheck="false">
<button type="submit" class="button primary">Search</button>
</div>
</form>
<p id="users-count" class="caption" aria-live="polite"></p>
<div class="table-scroll"><table id="users-table" class="data-table admin-table"></table></div>
<div class="pager">
<button type="button" id="users-prev" class="button secondary" disabled>Previous</button>
<button type="button" id="users-next" class="button secondary" disabled>Next</button>
</div>
<p id="users-error" class="message error" role="alert"></p>
<div id="user-panel" class="user-panel" hidden></div>
</section>`;
}

function plansSection(): string {
  return `<section class="card" id="admin-plans" aria-labelledby="admin-plans-heading">
<h2 id="admin-plans-heading">Plans</h2>
<p class="hint">A plan is a named pair of limits; a user's own limits override its plan's. <code>free</code> is the default plan.</p>
<div class="table-scroll"><table id="plans-table" class="data-table admin-table"></table></div>
<form id="plan-form" class="plan-form" novalidate>
<h3 id="plan-form-heading">New plan</h3>
<div class="fields">
<div class="field"><label for="plan-name">Name</label><input id="plan-name" type="text" maxlength="64" autocomplete="off" spellcheck="false" required></div>
<div class="field"><label for="plan-per-minute">Requests per minute</label><input id="plan-per-minute" type="number" min="0" step="1" inputmode="numeric" required></div>
<div class="field"><label for="plan-per-day">Requests per day</label><input id="plan-per-day" type="number" min="0" step="1" inputmode="numeric" required></div>
</div>
<div class="form-actions">
<button type="submit" id="plan-submit" class="button primary">Create plan</button>
<button type="button" id="plan-cancel" class="button secondary" hidden>Cancel</button>
</div>
<p id="plans-status" class="message" role="status"></p>
<p id="plans-error" class="message error" role="alert"></p>
</form>
</section>`;
}

function usageSection(): string {
  return `<section class="card" id="admin-usage" aria-labelledby="admin-usage-heading">
<div class="section-head">
<h2 id="admin-usage-heading">Usage</h2>
<div class="panel-controls">
<label for="usage-days">Over the last</label>
<select id="usage-days"><option value="7">7 days</option><option value="30" selected>30 days</option><option value="90">90 days</option><option value="366">366 days</option></select>
</div>
</div>
<p id="usage-totals" class="usage-totals" aria-live="polite">Reading the usage…</p>
<h3>Requests per UTC day, every user</h3>
<div id="admin-usage-chart" class="chart chart-admin-usage" role="img" aria-label="Bar chart of the requests admitted and refused per day across users; the figures are in the table below"></div>
<details class="figures">
<summary>The days as a table</summary>
<div class="table-scroll"><table id="usage-days-table" class="data-table"></table></div>
</details>
<div class="usage-tables">
<div class="table-scroll"><table id="top-users-table" class="data-table"></table></div>
<div class="table-scroll"><table id="refused-table" class="data-table"></table></div>
<div class="table-scroll"><table id="compute-table" class="data-table"></table></div>
</div>
<p id="usage-error" class="message error" role="alert"></p>
</section>`;
}

function universesSection(): string {
  return `<section class="card" id="admin-universes" aria-labelledby="admin-universes-heading">
<h2 id="admin-universes-heading">Universes</h2>
<p class="hint">A universe is stale when its newest daily bar is more than ${STALE_AFTER_DAYS} days old.</p>
<div class="table-scroll"><table id="universes-table" class="data-table admin-table"></table></div>
<p id="universes-error" class="message error" role="alert"></p>
</section>`;
}

function auditSection(): string {
  return `<section class="card" id="admin-audit" aria-labelledby="admin-audit-heading">
<h2 id="admin-audit-heading">Audit log</h2>
<p class="hint">Every change made from this console or the command line: who, what, when, and the values before and after. Newest first.</p>
<form id="audit-filter" class="fields audit-filter">
<div class="field"><label for="audit-target">Target</label><input id="audit-target" type="text" maxlength="200" autocomplete="off" spellcheck="false" placeholder="a user id or plan"></div>
<div class="field"><label for="audit-actor">Actor</label><input id="audit-actor" type="text" maxlength="200" autocomplete="off" spellcheck="false" placeholder="console:ID or cli:NAME"></div>
<div class="field field-button"><button type="submit" class="button secondary">Filter</button></div>
</form>
<div class="table-scroll"><table id="audit-table" class="data-table admin-table audit-table"></table></div>
<div class="pager"><button type="button" id="audit-more" class="button secondary" hidden>Older entries</button></div>
<p id="audit-error" class="message error" role="alert"></p>
</section>`;
}
