import { describe, expect, test } from "bun:test";
import { elements } from "../../test/support/html-elements.ts";
import { renderAdminPage, renderAdminRefused } from "./admin-page.ts";
import type { AdminPageView } from "./view-model.ts";

const ASSETS = { js: "/dashboard/assets/app.js?v=abc", css: "/dashboard/assets/app.css?v=abc" };
const EVIL = `"><script>alert(1)</script><img src=x onerror=alert(2)>'\`&`;
const VIEW: AdminPageView = { dev: true, user: { id: "u-1", email: "ada@lab.example", name: "Ada" }, csrf: "csrf-1" };

describe("renderAdminPage", () => {
  test("the frames the console script fills, each control with its label, and a way back to the dashboard", async () => {
    const els = await elements(renderAdminPage(VIEW, ASSETS));
    const ids = new Set(els.map((e) => e.attrs.id).filter(Boolean));
    for (const id of [
      "user-search",
      "users-table",
      "user-panel",
      "plans-table",
      "plan-form",
      "admin-usage-chart",
      "top-users-table",
      "refused-table",
      "compute-table",
      "universes-table",
      "audit-table",
      "gs-admin",
    ])
      expect(ids.has(id)).toBe(true);
    for (const input of els.filter((e) => (e.tag === "input" && e.attrs.type !== "hidden") || e.tag === "select")) {
      expect(els.some((e) => e.tag === "label" && e.attrs.for === input.attrs.id)).toBe(true);
    }
    expect(els.find((e) => e.tag === "h1")?.text).toBe("Admin console");
    expect(els.filter((e) => e.tag === "a" && e.text === "Dashboard").map((a) => a.attrs.href)).toEqual(["/dashboard"]);
    expect(els.find((e) => e.tag === "input" && e.attrs.name === "csrf")?.attrs.value).toBe("csrf-1");
    expect(els.some((e) => e.attrs.class === "dev-badge")).toBe(true);
  });

  test("no inline script, inline style or event-handler attribute (the CSP forbids them); the view escaped", async () => {
    const view: AdminPageView = { dev: false, user: { id: EVIL, email: EVIL, name: EVIL }, csrf: EVIL };
    const html = renderAdminPage(view, ASSETS);
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<img");
    const els = await elements(html);
    const scripts = els.filter((e) => e.tag === "script");
    expect(scripts.map((s) => s.attrs.type)).toEqual(["module", "application/json"]);
    expect(scripts[0].attrs.src).toBe(ASSETS.js);
    expect(els.some((e) => e.tag === "style")).toBe(false);
    for (const e of els) expect(Object.keys(e.attrs).filter((a) => a === "style" || a.startsWith("on"))).toEqual([]);
    const state = /<script type="application\/json" id="gs-admin">([^<]*)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(state ?? "null")).toEqual(view);
  });
});

describe("renderAdminRefused", () => {
  test("the reason as an alert and a way back, without the console's state (so its script starts nothing)", async () => {
    const html = renderAdminRefused(VIEW, `only admins: graph-stats user admin u-1 --on ${EVIL}`, ASSETS);
    expect(html).not.toContain("<script>alert");
    const els = await elements(html);
    expect(els.find((e) => e.attrs.role === "alert")?.text).toBe(`only admins: graph-stats user admin u-1 --on ${EVIL}`);
    expect(els.some((e) => e.attrs.id === "gs-admin")).toBe(false);
    expect(els.some((e) => e.attrs.id === "users-table")).toBe(false);
    expect(els.filter((e) => e.tag === "a" && e.text === "Back to the dashboard").map((a) => a.attrs.href)).toEqual(["/dashboard"]);
  });
});
