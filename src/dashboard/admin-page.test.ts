import { expect, test } from "bun:test";
import { renderAdminPage } from "./admin-page.ts";

const ASSETS = { js: "/dashboard/assets/app.js?v=abc", css: "/dashboard/assets/app.css?v=abc" };
const EVIL = `"><script>alert(1)</script>'&`;

const page = (refused?: string) =>
  renderAdminPage({ dev: false, signedIn: { user: { id: EVIL, email: null, name: EVIL }, csrf: EVIL, admin: !refused }, refused }, ASSETS);

test("the console's page: #admin carries the CSRF token and user id escaped, and only the bundle's script", () => {
  const html = page();
  expect(html).not.toContain("<script>alert");
  const main = html.match(/<main id="admin" class="page" data-csrf="([^"]*)" data-user="([^"]*)">/);
  expect(main?.slice(1)).toEqual([
    "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&#39;&amp;",
    "&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&#39;&amp;",
  ]);
  expect(html.match(/<script[^>]*>/g)).toEqual([`<script type="module" src="${ASSETS.js}">`]);
  expect(html).toContain('href="/dashboard/admin">Admin console</a>');
  expect(html).not.toMatch(/ style=| on[a-z]+=/);
});

test("refused: the reason instead of #admin, and no console link", () => {
  const html = page("not an admin");
  expect(html).not.toContain('id="admin"');
  expect(html).toContain("not an admin");
  expect(html).not.toContain("Admin console</a>");
});
