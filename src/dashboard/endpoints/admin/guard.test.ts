/**
 * Every console route, taken from the route table so none is missed: a signed-out caller gets 401
 * (the page: to the sign-in page), a signed-in user who is not an admin 403 naming the command that
 * makes one; every POST refuses another Origin and a missing or wrong CSRF token, changing nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startConsole, type ConsoleRig } from "../../../../test/support/admin-console.ts";
import { CSP, dashboardRoutes } from "../../routes.ts";
import type { DashboardDeps } from "../deps.ts";

let r: ConsoleRig;
beforeAll(async () => {
  r = await startConsole();
});
afterAll(() => r.stop());

// The table's factories only capture their dependencies, so it can be listed without any.
const CONSOLE = dashboardRoutes({ app: {} } as DashboardDeps).filter((x) => /^\/dashboard\/(admin|api\/admin)(\/|$)/.test(x.path));
const APIS = CONSOLE.filter((x) => x.path !== "/dashboard/admin");
const POSTS = CONSOLE.filter((x) => x.method === "POST");
/** A concrete path of the route: the plain user and a plan that exist. */
const pathOf = (path: string) => path.replace(":id", r.plain.id).replace(":name", "free");

test("the console has its page, five reads and seven actions", () => {
  expect([CONSOLE.length, APIS.filter((x) => x.method === "GET").length, POSTS.length]).toEqual([13, 5, 7]);
});

describe("who may use the console", () => {
  test("signed out: every API answers 401, the page sends to the sign-in page", async () => {
    for (const route of APIS) {
      const { status, code } = await r.call(route.method, pathOf(route.path), null, route.method === "POST" ? {} : undefined);
      expect([route.path, status, code]).toEqual([route.path, 401, "UNAUTHORIZED"]);
    }
    const page = await r.call("GET", "/dashboard/admin", null);
    expect([page.status, page.res.headers.get("location")]).toEqual([302, "/dashboard"]);
  });

  test("a signed-in user who is not an admin gets 403 on every API and the page, with what to do", async () => {
    const before = r.auditRows().length;
    for (const route of APIS) {
      const {
        status,
        code,
        message: said,
      } = await r.call(route.method, pathOf(route.path), r.plain, route.method === "POST" ? { plan: "free" } : undefined);
      expect([route.path, status, code]).toEqual([route.path, 403, "FORBIDDEN"]);
      expect(said).toContain("graph-stats user admin USER --on");
    }
    const page = await r.call("GET", "/dashboard/admin", r.plain);
    expect(page.status).toBe(403);
    expect(page.res.headers.get("content-security-policy")).toBe(CSP);
    expect(page.body).toContain("graph-stats user admin USER --on");
    expect(page.body).not.toContain('id="admin"');
    expect(r.auditRows().length).toBe(before);
  });

  test("an admin gets the page: the dashboard's CSP, the bundle, #admin with the session's CSRF token", async () => {
    const page = await r.call("GET", "/dashboard/admin", r.admin);
    expect(page.status).toBe(200);
    expect(page.res.headers.get("content-security-policy")).toBe(CSP);
    expect(page.body).toContain(`<main id="admin" class="page" data-csrf="${r.admin.csrf}" data-user="${r.admin.id}">`);
    expect(page.body).toMatch(/<script type="module" src="\/dashboard\/assets\/app\.js[^"]*"><\/script>/);
    expect(page.body).not.toMatch(/<script(?![^>]*src=)[^>]*>[^<]+<\/script>/);
  });

  test("the admin flag taken away is seen on the next request", async () => {
    const { s } = r;
    s.server.opened.sqlite.query("UPDATE users SET admin = 0 WHERE id = ?").run(r.admin.id);
    try {
      expect((await r.call("GET", "/dashboard/api/admin/plans", r.admin)).status).toBe(403);
    } finally {
      s.server.opened.sqlite.query("UPDATE users SET admin = 1 WHERE id = ?").run(r.admin.id);
    }
    expect((await r.call("GET", "/dashboard/api/admin/plans", r.admin)).status).toBe(200);
  });

  test("the signed-in state says admin, and only an admin's dashboard links the console", async () => {
    for (const [who, admin] of [
      [r.admin, true],
      [r.plain, false],
    ] as const) {
      expect((await r.call("GET", "/dashboard/api/state", who)).body.data.admin).toBe(admin);
      expect(((await r.call("GET", "/dashboard", who)).body as string).includes('href="/dashboard/admin"')).toBe(admin);
    }
  });
});

describe("every action is a POST from our own page", () => {
  const refusals: [string, Record<string, string>, string][] = [
    ["another Origin", { Origin: "https://evil.example" }, "cross-origin request refused"],
    ["no CSRF token", { "X-CSRF-Token": "" }, "CSRF token"],
    ["a wrong CSRF token", { "X-CSRF-Token": "A".repeat(43) }, "CSRF token"],
  ];
  for (const [what, headers, message] of refusals) {
    test(`${what}: 403 on every action, for the admin too, nothing recorded`, async () => {
      const before = r.auditRows().length;
      for (const route of POSTS) {
        const { status, code, message: said } = await r.call("POST", pathOf(route.path), r.admin, { plan: "free" }, headers);
        expect([route.path, status, code]).toEqual([route.path, 403, "FORBIDDEN"]);
        expect(said).toContain(message);
      }
      expect(r.auditRows().length).toBe(before);
    });
  }

  test("a read of the console by another method is 405", async () => {
    expect((await r.call("POST", "/dashboard/api/admin/usage", r.admin, {})).status).toBe(405);
    expect((await r.call("GET", `/dashboard/api/admin/users/${r.plain.id}/disable`, r.admin)).status).toBe(405);
  });
});
