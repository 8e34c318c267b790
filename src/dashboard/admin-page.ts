/**
 * The admin console's page (GET /dashboard/admin): the dashboard's document — its header, script
 * and stylesheet, so its CSP — around an empty `#admin` main element that the browser script fills
 * from the console's APIs; the CSRF token for their POSTs is its data-csrf. A signed-in user who is
 * not an admin gets the same document with the reason instead (403).
 */
import { documentHead, FOOTER, type HeaderUser, header, notice, type PageAssets } from "./pages.ts";
import { escapeHtml as e } from "./web/html.ts";

export interface AdminPageView {
  dev: boolean;
  signedIn: HeaderUser;
  /** Set for a user who may not use the console: what to do instead. */
  refused?: string;
}

export function renderAdminPage(view: AdminPageView, assets: PageAssets): string {
  const main = view.refused
    ? `<main id="main" class="page">
<section class="card hero" aria-labelledby="admin-heading">
<h1 id="admin-heading">Admin console</h1>
<p>This account may not use the admin console.</p>
<p><a class="button secondary" href="/dashboard">Back to the dashboard</a></p>
</section>
</main>`
    : `<main id="admin" class="page" data-csrf="${e(view.signedIn.csrf)}" data-user="${e(view.signedIn.user.id)}">
<h1 class="visually-hidden">Admin console</h1>
<p class="admin-loading">Loading the console…</p>
<noscript><p class="message error">The console needs JavaScript; every action is also a <code>graph-stats</code> command (docs/operator.md).</p></noscript>
</main>`;
  return `${documentHead("Admin console · graph-stats", assets)}
<body>
${header(view.dev, view.signedIn)}
${notice({ notice: view.refused ? { kind: "error", text: view.refused } : null })}
${main}
${FOOTER}
</body>
</html>
`;
}
