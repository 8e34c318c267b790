/**
 * The admin console end to end, on both databases: Debian's Chromium signs an admin in at the real
 * development OpenID provider, and through the page it finds a user by e-mail, changes its plan and
 * limits, disables and enables it, revokes its tokens, creates and edits a plan, and reads the usage
 * overview and the audit entries of what it did; each change is checked by its effect on the user's
 * live requests. A non-admin sees no link and is refused (403) the page and the API. At 375 px the
 * page does not scroll sideways. GRAPH_STATS_SCREENSHOTS=<dir> keeps docs/dashboard.md's pictures.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { KINDS } from "../support/both-databases.ts";
import { CHROMIUM, chromiumAvailable, sharedBrowser } from "../support/browser.ts";
import { type AnyDashboardHarness, openDashboard, settled, signInByHttp, startDashboardOn } from "./harness.ts";

const SHOTS = process.env.GRAPH_STATS_SCREENSHOTS;
const LIVE = "/v1/graph-stats/chart?lookback=30";
const DAY = 86_400_000;
if (!chromiumAvailable()) console.warn(`admin console browser tests skipped: no Chromium at ${CHROMIUM}`);

for (const kind of KINDS) {
  describe.skipIf(!chromiumAvailable())(`the admin console in a real browser (${kind})`, () => {
    let h: AnyDashboardHarness;
    let browser: Browser;
    /** Ada, whose account the admin manages: her id and a token lasting past the test's days. */
    let ada: { id: string; call: () => Promise<Response> };

    beforeAll(async () => {
      h = await startDashboardOn(kind);
      browser = await sharedBrowser();
      const { context } = await signInByHttp(h, browser, "ada");
      const id = ((await (await context.request.get(`${h.base}/dashboard/api/state`)).json()) as any).data.user.id;
      await context.close();
      const minted = await h.cli("token", "create", "--user", id, "--ttl", "7d", "--json");
      expect(minted.code).toBe(0);
      const token = JSON.parse(minted.stdout)[0].token;
      ada = { id, call: () => fetch(`${h.base}${LIVE}`, { headers: { Authorization: `Bearer ${token}` } }) };
      // Three days of use: each day one request admitted and the next refused by the 1/min of the free plan.
      for (let d = 0; d < 3; d++) {
        if (d > 0) h.clock.tick(DAY);
        expect((await ada.call()).status).toBe(200);
        const refused = await ada.call();
        expect([refused.status, ((await refused.json()) as any).errors[0].code]).toEqual([429, "RATE_LIMITED"]);
      }
    }, 180_000);
    afterAll(async () => {
      await h?.stop();
    });

    /** A fresh profile signed in as `name`, made an admin by the operator's command first when `admin`. */
    async function signedIn(name: string, admin: boolean): Promise<{ context: BrowserContext; csrf: string; id: string }> {
      const first = await signInByHttp(h, browser, name);
      const id = ((await (await first.context.request.get(`${h.base}/dashboard/api/state`)).json()) as any).data.user.id;
      if (!admin) return { ...first, id };
      const made = await h.cli("user", "admin", id, "--on");
      expect(made.code).toBe(0);
      return { ...first, id };
    }

    /** The rate-limit headers of Ada's next request (past the minute window first): its limits as the server applies them. */
    async function adaLimits(): Promise<{ status: number; perMinute: string | null; perDay: string | null }> {
      h.clock.tick(61_000);
      const res = await ada.call();
      await res.arrayBuffer();
      return { status: res.status, perMinute: res.headers.get("x-ratelimit-limit"), perDay: res.headers.get("x-ratelimit-daily-limit") };
    }

    const text = (page: Page, selector: string) => async () => (await page.locator(selector).textContent()) ?? "";
    const said = (page: Page, selector: string, part: string) => settled(text(page, selector), (t) => t.includes(part));

    async function shot(page: Page, name: string, selector?: string) {
      if (!SHOTS || kind !== "sqlite") return;
      mkdirSync(SHOTS, { recursive: true });
      await page.waitForTimeout(500); // the chart's first frame
      // Clicking a row's button scrolled its table sideways; a reader first sees it from the left.
      await page.locator(".table-scroll").evaluateAll((boxes) => {
        for (const b of boxes) b.scrollLeft = 0;
      });
      const path = join(SHOTS, `${name}.png`);
      if (selector) await page.locator(selector).screenshot({ path });
      else await page.screenshot({ path, fullPage: true });
    }

    test("an admin finds a user by e-mail, changes its plan and limits, disables, enables and revokes it, makes and edits a plan, and reads the usage and the audit", async () => {
      const root = await signedIn("root", true);
      const { page, cspErrors } = await openDashboard(h, root.context);
      await page.getByRole("link", { name: "Admin console" }).click();
      await page.waitForURL(`${h.base}/dashboard/admin`);
      await page.getByRole("heading", { name: "Admin console" }).waitFor();

      // A plan, created and then edited.
      await page.getByLabel("Name", { exact: true }).fill("team");
      await page.getByLabel("Requests per minute").fill("10");
      await page.getByLabel("Requests per day").fill("2000");
      await page.getByRole("button", { name: "Create plan" }).click();
      expect(await said(page, "#plans-status", "Plan team created")).toBe("Plan team created: 10/min, 2\u2009000/day.");
      await page.getByRole("button", { name: "Edit plan team" }).click();
      expect(await page.getByLabel("Name", { exact: true }).getAttribute("readonly")).not.toBeNull();
      await page.getByLabel("Requests per day").fill("3000");
      await page.getByRole("button", { name: "Save plan" }).click();
      expect(await said(page, "#plans-status", "Plan team saved")).toBe("Plan team saved: 10/min, 3\u2009000/day.");
      expect(await said(page, '#plans-table tr[data-plan="team"]', "3\u2009000/day")).toContain("3\u2009000/day");

      // The user, found by its e-mail.
      await page.getByLabel("Search users").fill("ada@dev.invalid");
      await page.getByRole("button", { name: "Search" }).click();
      expect(await said(page, "#users-count", "matching")).toBe('1 user matching "ada@dev.invalid"');
      const row = page.locator(`#users-table tr[data-user="${ada.id}"]`);
      expect(await row.textContent()).toContain("free");
      expect(await row.textContent()).toContain("1/min default");
      await page.getByRole("button", { name: "Manage ada" }).click();
      await page.locator("#user-panel").waitFor({ state: "visible" });

      await page.getByLabel("Plan", { exact: true }).selectOption("team");
      await page.getByRole("button", { name: "Change plan" }).click();
      expect(await said(page, "#user-status", "team plan")).toBe("ada is now on the team plan.");
      expect(await said(page, `#users-table tr[data-user="${ada.id}"]`, "10/min plan")).toContain("3\u2009000/day plan");
      expect(await adaLimits()).toEqual({ status: 200, perMinute: "10", perDay: "3000" });

      await page.getByLabel("Own limit per minute").fill("5");
      await page.getByRole("button", { name: "Save limits" }).click();
      expect(await said(page, "#user-status", "now has")).toBe("ada now has 5/min and 3\u2009000/day.");
      expect(await said(page, `#users-table tr[data-user="${ada.id}"]`, "5/min own")).toContain("5/min own");
      expect(await adaLimits()).toEqual({ status: 200, perMinute: "5", perDay: "3000" });
      if (SHOTS) await page.getByRole("button", { name: "Manage ada" }).focus(); // the row's button, not a field, in the picture
      await shot(page, "11-admin-users", "#admin-users");

      await page.getByRole("button", { name: "Disable", exact: true }).click();
      expect(await said(page, "#user-status", "disabled")).toBe("ada is disabled.");
      expect((await adaLimits()).status).toBe(403);
      await page.getByRole("button", { name: "Enable", exact: true }).click();
      expect(await said(page, "#user-status", "enabled")).toBe("ada is enabled.");
      expect((await adaLimits()).status).toBe(200);

      // Revoking asks first; then every token of hers is refused.
      await page.getByRole("button", { name: "Revoke all tokens" }).click();
      await page.getByRole("button", { name: "Confirm revoking 1 token" }).click();
      expect(await said(page, "#user-status", "Revoked")).toBe("Revoked 1 token of ada.");
      expect(await said(page, `#users-table tr[data-user="${ada.id}"]`, "active")).toMatch(/active\s*0/);
      h.clock.tick(61_000);
      const revoked = await ada.call();
      expect([revoked.status, ((await revoked.json()) as any).errors[0].message]).toEqual([401, "token revoked"]);

      // The audit log shows each of those, by this admin, newest first, with what changed.
      const actor = `console:${root.id}`;
      const audit = async () =>
        page
          .locator("#audit-table tbody tr")
          .evaluateAll((rows) =>
            rows.map((r) =>
              [...r.querySelectorAll("th, td")].map((c) =>
                c.classList.contains("change")
                  ? [...c.querySelectorAll(".change-line")].map((l) => l.textContent).join("; ")
                  : (c.textContent ?? "").trim(),
              ),
            ),
          );
      const rows = await settled(audit, (r) => r[0]?.[2] === "user.revoke-tokens");
      const mine = rows.filter((r) => r[1] === actor).map((r) => [r[2], r[3], r[4]]);
      expect(mine.map(([action, target]) => `${action} ${target}`)).toEqual([
        `user.revoke-tokens ${ada.id}`,
        `user.enable ${ada.id}`,
        `user.disable ${ada.id}`,
        `user.limits ${ada.id}`,
        `user.plan ${ada.id}`,
        "plan.set team",
        "plan.create team",
      ]);
      expect(mine[0]![2]).toMatch(/^live: \[".+"\] → \[\]$/);
      expect(mine[1]![2]).toBe("disabled: true → false");
      expect(mine[2]![2]).toBe("disabled: false → true");
      expect(mine[3]![2]).toBe("per_minute: null → 5");
      expect(mine[4]![2]).toBe("plan: free → team");
      expect(mine[5]![2]).toBe("per_day: 2000 → 3000");
      expect(mine[6]![2]).toBe("per_minute = 10; per_day = 2000");
      // The same entries the API gives (the page shows them all, none invented).
      const api = ((await (await root.context.request.get(`${h.base}/dashboard/api/admin/audit?actor=${actor}`)).json()) as any).data;
      expect(api.entries.map((e: any) => e.action)).toEqual(mine.map((m) => m[0]));
      // Filtered by target: Ada's entries only, the CLI's token among them.
      await page.getByLabel("Target").fill(ada.id);
      await page.getByRole("button", { name: "Filter" }).click();
      const hers = await settled(audit, (r) => r.every((row) => row[3] === ada.id));
      expect(hers.map((r) => r[2])).toEqual([...mine.slice(0, 5).map((m) => m[0]), "token.create"]);

      // The usage overview, read again: its figures are the API's, and Ada tops it.
      await page.getByLabel("Over the last").selectOption("7");
      const usage = ((await (await root.context.request.get(`${h.base}/dashboard/api/admin/usage?days=7`)).json()) as any).data;
      expect(usage.totals.admitted).toBeGreaterThanOrEqual(6);
      expect(usage.days.filter((d: any) => d.admitted > 0).length).toBeGreaterThanOrEqual(3);
      const totals = await said(page, "#usage-totals", `${usage.totals.admitted} admitted`);
      expect(totals).toStartWith(`${usage.totals.admitted} admitted · ${usage.totals.refused} refused · ${usage.totals.refunded} refunded`);
      expect(await text(page, "#top-users-table tbody tr:first-child th")()).toContain(ada.id);
      expect(await text(page, "#refused-table")()).toContain("RATE_LIMITED");
      expect(await text(page, "#compute-table")()).toContain(ada.id);
      const chart = await page.locator("#admin-usage-chart canvas").first().boundingBox();
      expect(chart?.width ?? 0).toBeGreaterThan(300);
      expect(chart?.height ?? 0).toBeGreaterThan(150);
      expect(await text(page, "#universes-table")()).toContain("sample");
      await shot(page, "12-admin-usage", "#admin-usage");
      expect(cspErrors).toEqual([]);
      await root.context.close();
    });

    test("users page 50 at a time; an admin may not disable itself here (the page says why, nothing changes)", async () => {
      expect((await h.cli("token", "create", "--users", "60", "--prefix", "bulk-")).code).toBe(0);
      const dora = await signedIn("dora", true);
      const page = await dora.context.newPage();
      await page.goto(`${h.base}/dashboard/admin`);
      await page.getByLabel("Search users").fill("bulk-");
      await page.getByRole("button", { name: "Search" }).click();
      expect(await said(page, "#users-count", "of 60")).toBe('1–50 of 60 users matching "bulk-"');
      expect(await page.locator("#users-table tbody tr").count()).toBe(50);
      await page.getByRole("button", { name: "Next" }).click();
      expect(await said(page, "#users-count", "51–")).toBe('51–60 of 60 users matching "bulk-"');
      expect(await page.locator("#users-table tbody tr").count()).toBe(10);
      expect(await page.getByRole("button", { name: "Next" }).isDisabled()).toBe(true);
      await page.getByRole("button", { name: "Previous" }).click();
      expect(await said(page, "#users-count", "1–50")).toBe('1–50 of 60 users matching "bulk-"');

      await page.getByLabel("Search users").fill("dora@dev.invalid");
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByRole("button", { name: "Manage dora" }).click();
      await page.getByRole("button", { name: "Disable", exact: true }).click();
      expect(await said(page, "#user-error", "CLI")).toContain("CLI");
      const me = ((await (await dora.context.request.get(`${h.base}/dashboard/api/state`)).json()) as any).data;
      expect([me.user.disabled, me.admin]).toEqual([false, true]);
      await dora.context.close();
    });

    test("a non-admin sees no console link and is refused the page and the admin API (403)", async () => {
      const bob = await signedIn("bob", false);
      const { page, cspErrors } = await openDashboard(h, bob.context);
      expect(await page.getByRole("link", { name: "Admin console" }).count()).toBe(0);
      const state = ((await (await bob.context.request.get(`${h.base}/dashboard/api/state`)).json()) as any).data;
      expect(state.admin).toBe(false);
      const opened = await page.goto(`${h.base}/dashboard/admin`);
      expect(opened?.status()).toBe(403);
      expect(await page.locator("#gs-admin").count()).toBe(0);
      const read = await bob.context.request.get(`${h.base}/dashboard/api/admin/users?q=ada`);
      const readBody = (await read.json()) as any;
      expect([read.status(), readBody.errors[0].code]).toEqual([403, "FORBIDDEN"]);
      expect(readBody.errors[0].message).toContain("graph-stats user admin");
      expect(JSON.stringify(readBody)).not.toContain("ada@dev.invalid");
      // A change with the right Origin and CSRF token is refused too, and changes nothing.
      const create = await bob.context.request.post(`${h.base}/dashboard/api/admin/plans`, {
        headers: { Origin: h.base, "X-CSRF-Token": bob.csrf },
        data: { name: "bobs", per_minute: 100, per_day: 100_000 },
      });
      expect(create.status()).toBe(403);
      const plans = await h.cli("plan", "list");
      expect(plans.stdout).not.toContain("bobs");
      expect(cspErrors).toEqual([]);
      await bob.context.close();
    });

    test("at 375 px the console reads without sideways scrolling: wide tables scroll in their own box", async () => {
      const rita = await signedIn("rita", true);
      const page = await rita.context.newPage();
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(`${h.base}/dashboard/admin`);
      await page.getByLabel("Search users").fill("ada");
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByRole("button", { name: "Manage ada" }).click();
      await page.locator("#user-panel").waitFor({ state: "visible" });
      await said(page, "#audit-table", "user.admin.on");
      const widths = await page.evaluate(() => {
        const doc = (globalThis as unknown as { document: any }).document;
        const boxes = [...doc.querySelectorAll(".table-scroll")].filter((b: any) => b.offsetParent !== null);
        return {
          page: doc.scrollingElement.scrollWidth as number,
          widestBox: Math.max(...boxes.map((b: any) => b.getBoundingClientRect().right as number)),
          usersTable: doc.querySelector("#users-table").scrollWidth as number,
          usersBox: doc.querySelector("#users-table").parentElement.clientWidth as number,
        };
      });
      expect(widths.page).toBeLessThanOrEqual(375);
      expect(widths.widestBox).toBeLessThanOrEqual(375);
      // The users' table is wider than the phone, and scrolls inside its box instead of the page.
      expect(widths.usersTable).toBeGreaterThan(widths.usersBox);
      await shot(page, "13-admin-phone");
      await rita.context.close();
    });
  });
}
