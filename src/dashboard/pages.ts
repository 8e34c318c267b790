/**
 * The dashboard page, rendered on the server so every number is there without JavaScript. The
 * page carries no inline script or style (the Content-Security-Policy forbids both): the browser
 * script (web/main.ts) reads the view from the JSON data block `#gs-state` and takes over.
 */
import { queryFormHtml } from "./query-form-html.ts";
import type { DashboardView, SignedInView } from "./view-model.ts";
import { STALE_AFTER_DAYS } from "./web/data-model.ts";
import { METRIC_LABELS } from "./web/format.ts";
import { generateState, tokenListHtml, usageFiguresHtml, usageTableHtml } from "./web/fragments.ts";
import { escapeHtml as e, jsonForScript } from "./web/html.ts";

export interface PageAssets {
  /** URL of the bundled script. */
  js: string;
  /** URL of the stylesheet. */
  css: string;
}

/** The complete HTML5 document for `/dashboard`, signed in or out. */
export function renderDashboard(view: DashboardView, assets: PageAssets): string {
  const title = view.signedIn ? "Dashboard · graph-stats" : view.retrySignOut ? "Sign out · graph-stats" : "Sign in · graph-stats";
  const body = view.signedIn
    ? signedInMain(view.signedIn)
    : view.retrySignOut
      ? stillSignedInMain(view.retrySignOut)
      : signedOutMain(view.dev);
  const link = view.signedIn?.admin ? { href: "/dashboard/admin", text: "Admin console" } : undefined;
  return documentHtml({
    title,
    assets,
    header: siteHeader(view.dev, view.signedIn, link),
    notice: notice(view),
    main: body,
    state: { id: "gs-state", value: view },
  });
}

/**
 * A dashboard document (the dashboard and the admin console): the stylesheet and the one bundled
 * script, `main` in the page's <main>, and `state` as the JSON data block the script reads.
 */
export function documentHtml(o: {
  title: string;
  assets: PageAssets;
  header: string;
  notice?: string;
  main: string;
  state: { id: string; value: unknown };
}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${e(o.title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${e(o.assets.css)}">
<script type="module" src="${e(o.assets.js)}"></script>
</head>
<body>
${o.header}
${o.notice ?? ""}
<main id="main" class="page">
${o.main}
</main>
<footer class="site-footer"><p>graph-stats · correlation networks of stock returns · <a href="/docs">API documentation</a></p></footer>
<script type="application/json" id="${e(o.state.id)}">${jsonForScript(o.state.value)}</script>
</body>
</html>
`;
}

/** Who is signed in, as the header shows them. */
export interface HeaderUser {
  user: { id: string; email: string | null; name: string | null };
  csrf: string;
}

/** The site header: the brand, the development badge, and the signed-in user with `link` (another page of theirs) and Sign out. */
export function siteHeader(dev: boolean, who: HeaderUser | null, link?: { href: string; text: string }): string {
  const badge = dev
    ? `<span class="dev-badge" title="An embedded identity provider for trying the service out; not for production">development sign-in</span>`
    : "";
  const user = who ? userBlock(who, link) : "";
  return `<header class="site-header">
<div class="site-header-inner">
<div class="brand-row"><p class="brand"><a href="/dashboard">graph-stats</a></p>${badge}</div>
${user}
</div>
</header>`;
}

function userBlock(s: HeaderUser, link?: { href: string; text: string }): string {
  const name = s.user.name ?? s.user.email ?? s.user.id;
  const email = s.user.email && s.user.email !== name ? `<span class="user-email">${e(s.user.email)}</span>` : "";
  const nav = link ? `<a class="header-link" href="${e(link.href)}">${e(link.text)}</a>` : "";
  return `<div class="user">
${nav}<span class="user-names"><span class="user-name">${e(name)}</span>${email}</span>
<form method="post" action="/auth/logout" class="sign-out">
<input type="hidden" name="csrf" value="${e(s.csrf)}">
<button type="submit" class="button secondary">Sign out</button>
</form>
</div>`;
}

function notice(view: DashboardView): string {
  if (!view.notice) return "";
  const role = view.notice.kind === "error" ? "alert" : "status";
  return `<div class="notice notice-${view.notice.kind}" role="${role}"><p>${e(view.notice.text)}</p></div>`;
}

function signedOutMain(dev: boolean): string {
  const devNote = dev
    ? `<p class="dev-note">This server signs you in with its own embedded identity provider, which accepts any name. It is for trying graph-stats out, never for production.</p>`
    : "";
  return `<section class="card hero" aria-labelledby="signin-heading">
<h1 id="signin-heading">Sign in to graph-stats</h1>
<p>Sign in with your identity-provider account to generate API tokens for the live endpoint, see how much of your daily quota you have used, and run your own network queries.</p>
${devNote}
<p><a class="button primary large" href="/auth/login">Sign in</a></p>
</section>
${networkSection(false)}`;
}

/** After a sign-out that did not finish: the session is still valid, so the page offers Sign out, not Sign in. */
function stillSignedInMain(csrf: string): string {
  return `<section class="card hero" aria-labelledby="signout-heading">
<h1 id="signout-heading">You are still signed in</h1>
<p>This browser's session is still valid. Sign out again in a few seconds.</p>
<form method="post" action="/auth/logout" class="sign-out">
<input type="hidden" name="csrf" value="${e(csrf)}">
<button type="submit" class="button primary large">Sign out</button>
</form>
</section>
${networkSection(false)}`;
}

function signedInMain(s: SignedInView): string {
  return `<h1 class="visually-hidden">Dashboard</h1>
<div class="grid-two">
${apiAccessSection(s)}
${usageSection(s)}
</div>
${dataSection()}
${networkSection(true)}`;
}

function apiAccessSection(s: SignedInView): string {
  const gen = generateState(s);
  const disabled = gen.allowed ? "" : " disabled";
  return `<section class="card" id="api-access" aria-labelledby="api-access-heading">
<h2 id="api-access-heading">API access</h2>
<p>A token lets a program call <code>GET /v1/graph-stats/chart</code> as you; every call counts against your quota. Keep it secret.</p>
<div class="generate">
<button type="button" id="generate-token" class="button primary" aria-describedby="generate-hint"${disabled}>Generate token</button>
<p id="generate-hint" class="hint">${e(gen.hint)}</p>
</div>
<p id="token-error" class="message error" role="alert"></p>
<p id="token-status" class="message" role="status"></p>
<div id="new-token" class="new-token" hidden>
<p class="once"><strong>Copy it now: the token is shown once.</strong> It lives 24 h; after that, generate a new one here.</p>
<label for="new-token-value">New token</label>
<div class="copy-row">
<input id="new-token-value" type="text" readonly spellcheck="false" autocomplete="off">
<button type="button" class="button secondary" data-copy="new-token-value">Copy</button>
</div>
<label for="new-token-curl">Try it with curl</label>
<div class="copy-row">
<textarea id="new-token-curl" readonly rows="4" spellcheck="false"></textarea>
<button type="button" class="button secondary" data-copy="new-token-curl" aria-label="Copy curl command">Copy</button>
</div>
</div>
<h3>Live tokens</h3>
<ul id="token-list" class="token-list">
${tokenListHtml(s.tokens)}
</ul>
</section>`;
}

function usageSection(s: SignedInView): string {
  return `<section class="card" id="usage" aria-labelledby="usage-heading">
<h2 id="usage-heading">Usage</h2>
<div id="usage-figures" aria-live="polite">
${usageFiguresHtml(s.usage)}
</div>
<h3>Last 30 days</h3>
<div id="usage-chart" class="chart chart-usage" role="img" aria-label="Bar chart of requests admitted per day over the last 30 days; the figures are in the table that follows"></div>
<table id="usage-table" class="visually-hidden">
${usageTableHtml(s.usage)}
</table>
</section>`;
}

/** The stored universes and one's coverage, filled by the browser script from /dashboard/api/universes. */
function dataSection(): string {
  return `<section class="card" id="data" aria-labelledby="data-heading">
<h2 id="data-heading">Data</h2>
<p class="hint">The universes this server stores, as <code>GET /v1/universes</code> lists them (reading them uses no quota). A universe is stale when its newest daily bar is more than ${STALE_AFTER_DAYS} days old.</p>
<noscript><p class="message error">This list needs JavaScript; <code>graph-stats universe list</code> prints it too.</p></noscript>
<div class="table-scroll"><table id="data-universes" class="data-table"></table></div>
<div class="panel-controls">
<label for="data-universe">Coverage of</label>
<select id="data-universe" disabled></select>
</div>
<p id="data-calendar" class="caption"></p>
<div class="table-scroll coverage-scroll"><table id="data-coverage" class="data-table"></table></div>
<p id="data-error" class="message error" role="alert"></p>
</section>`;
}

function metricOptions(selected: string): string {
  return Object.entries(METRIC_LABELS)
    .map(([v, label]) => `<option value="${e(v)}"${v === selected ? " selected" : ""}>${e(label)}</option>`)
    .join("");
}

function networkSection(signedIn: boolean): string {
  return `<section class="card" id="network" aria-labelledby="network-heading">
<div class="section-head">
<h2 id="network-heading">Network</h2>
<p id="network-source" class="source" aria-live="polite">Demo snapshot of the sample universe</p>
</div>
<p class="hint">Each stock is a node; an edge joins two stocks whose daily returns move together, thicker and darker the stronger the correlation |ρ|. Colours are the communities the network falls into, which for equities are usually sectors; colour by sector to compare, where the stocks' sectors are known (<code>graph-stats import-metadata</code>). Hover or tap a node for its figures.</p>
<noscript><p class="message error">The network pictures need JavaScript. The figures are also served by <a href="/v1/demo/chart">/v1/demo/chart</a>.</p></noscript>
<div class="network-grid">
<figure class="panel panel-graph">
<div class="panel-controls">
<label for="size-by">Size by</label>
<select id="size-by">${metricOptions("degree_strength")}</select>
<label for="colour-by">Colour by</label>
<select id="colour-by"><option value="community" selected>Community</option><option value="sector">Sector</option></select>
</div>
<div id="graph-chart" class="chart chart-graph" role="img" aria-label="Correlation network: nodes coloured by community, sized by the chosen metric; the figures are in the table below"></div>
<figcaption id="graph-caption" class="caption"></figcaption>
<p id="sector-agreement" class="caption sector-agreement" hidden></p>
</figure>
<figure id="dendrogram-panel" class="panel panel-dendrogram" hidden>
<h3 class="panel-title">Hierarchy</h3>
<div class="dendrogram-scroll"><div id="dendrogram-chart" class="chart chart-dendrogram" role="img" aria-label="Dendrogram of the hierarchical clustering: the stocks down the side in leaf order, each merge drawn at its distance"></div></div>
<figcaption id="dendrogram-caption" class="caption"></figcaption>
</figure>
<figure class="panel panel-rolling">
<div class="panel-controls">
<label for="rolling-metric">Metric over time</label>
<select id="rolling-metric">${metricOptions("degree_strength")}</select>
</div>
<div id="rolling-chart" class="chart chart-rolling" role="img" aria-label="Line chart of the chosen metric over time for the chosen stocks"></div>
<p id="rolling-note" class="caption"></p>
<fieldset class="stock-picker">
<legend>Stocks</legend>
<div class="picker-actions"><button type="button" id="pick-top" class="button link">Top 5 by this metric</button><button type="button" id="pick-none" class="button link">Clear</button></div>
<div id="stock-options" class="stock-options"></div>
</fieldset>
</figure>
<figure id="weights-panel" class="panel panel-weights" hidden>
<h3 class="panel-title">Portfolio weights</h3>
<div id="weights-chart" class="chart chart-weights" role="img" aria-label="Bar chart of the largest portfolio weights"></div>
<p id="weights-caption" class="caption"></p>
<details class="figures">
<summary>Every stock's weight as a table</summary>
<div class="table-scroll"><table id="weights-table" class="data-table"></table></div>
</details>
</figure>
<figure id="spectrum-panel" class="panel panel-spectrum" hidden>
<div class="panel-controls">
<h3 class="panel-title">Eigenvalue spectrum</h3>
<label for="spectrum-asof">Eigenvalues on</label>
<select id="spectrum-asof"></select>
</div>
<div id="spectrum-chart" class="chart chart-spectrum" role="img" aria-label="Bar chart of the correlation matrix's eigenvalues, largest first, against the Marchenko–Pastur edge"></div>
<p id="spectrum-caption" class="caption"></p>
</figure>
</div>
<details class="figures">
<summary>The network's figures as a table</summary>
<div class="table-scroll"><table id="network-table" class="data-table"></table></div>
</details>
<p id="network-error" class="message error" role="alert"></p>
${signedIn ? queryFormHtml() : ""}
</section>`;
}
