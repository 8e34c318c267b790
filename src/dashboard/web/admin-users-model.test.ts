import { describe, expect, test } from "bun:test";
import type { AdminPlan, AdminUser } from "./admin-types.ts";
import { limitCell, userPanelHtml, usersCountText, usersTableHtml } from "./admin-users-model.ts";

const EVIL = `"><script>alert(1)</script>`;

function user(over: Partial<AdminUser> = {}): AdminUser {
  return {
    id: "u-ada",
    email: "ada@lab.example",
    name: "Ada",
    plan: "team",
    limits: { per_minute: 10, per_day: 1000, source_per_minute: "plan", source_per_day: "user" },
    own_limits: { per_minute: null, per_day: 1000 },
    disabled: false,
    admin: false,
    live_tokens: 2,
    today: { admitted: 3, refused: 1, uncounted: 0 },
    last_30_days: { admitted: 1500, refused: 0, uncounted: 2 },
    ...over,
  };
}

const PLANS: AdminPlan[] = [
  { name: "free", per_minute: 1, per_day: 30, users: 5, updated_at: null },
  { name: "team", per_minute: 10, per_day: 2000, users: 1, updated_at: "2026-12-01T10:00:00Z" },
];

describe("usersCountText", () => {
  test("the whole result, a page of it, or nothing found", () => {
    expect(usersCountText({ total: 3, offset: 0, shown: 3 }, "")).toBe("3 users");
    expect(usersCountText({ total: 1, offset: 0, shown: 1 }, "ada")).toBe('1 user matching "ada"');
    expect(usersCountText({ total: 312, offset: 50, shown: 50 }, "")).toBe("51–100 of 312 users");
    expect(usersCountText({ total: 0, offset: 0, shown: 0 }, "zed")).toBe('No user matches "zed".');
    expect(usersCountText({ total: 0, offset: 0, shown: 0 }, "")).toBe("No users yet.");
  });
});

describe("usersTableHtml", () => {
  test("a row per user: who, plan, each limit with its source, state, tokens, today's and 30 days' usage, a Manage button", () => {
    const html = usersTableHtml([user(), user({ id: "u-bo", name: null, email: "bo@x.example", disabled: true, admin: true })], "u-bo");
    const rows = html.split("<tr data-user=").slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain(
      '<span class="cell-main">Ada</span><span class="cell-sub">ada@lab.example</span><span class="cell-sub">u-ada</span>',
    );
    expect(rows[0]).toContain("<td>team</td>");
    expect(rows[0]).toContain(limitCell(10, "min", "plan"));
    expect(rows[0]).toContain(`1\u2009000/day <span class="source-tag">own</span>`);
    expect(rows[0]).toContain("<td>3 (1 refused)</td>");
    expect(rows[0]).toContain("<td>1\u2009500</td>");
    expect(rows[0]).toContain('aria-label="Manage Ada"');
    expect(rows[0]).toContain('state-tag on">active');
    expect(rows[0]).not.toContain("selected");
    // No name: the e-mail is the label and not repeated; the chosen row is marked.
    expect(rows[1]).toContain('<span class="cell-main">bo@x.example</span><span class="cell-sub">u-bo</span>');
    expect(rows[1]).toContain('class="selected" aria-current="true"');
    expect(rows[1]).toContain('state-tag off">disabled');
    expect(rows[1]).toContain('state-tag admin">admin');
  });

  test("everything from the server is escaped", () => {
    const html = usersTableHtml([user({ id: EVIL, name: EVIL, email: EVIL, plan: EVIL })], null);
    expect(html).not.toContain("<script>");
  });
});

describe("userPanelHtml", () => {
  test("the plan selector on the user's plan, own limits filled (empty where the plan's apply), Disable, Revoke", () => {
    const html = userPanelHtml(user(), PLANS);
    expect(html).toContain('<option value="team" selected>team</option>');
    expect(html).toContain('<option value="free">free</option>');
    expect(html).toMatch(/id="user-per-minute"[^>]*value=""[^>]*placeholder="plan: 10"/);
    expect(html).toMatch(/id="user-per-day"[^>]*value="1000"[^>]*placeholder="the plan&#39;s"/);
    expect(html).toContain('data-action="disable">Disable<');
    expect(html).not.toContain('data-action="enable"');
    expect(html).toContain('data-action="revoke">Revoke all tokens<');
    expect(html).not.toContain("revoke-confirm");
  });

  test("a disabled user is offered Enable; with no tokens Revoke is disabled; a plan not listed is still offered", () => {
    const html = userPanelHtml(user({ disabled: true, live_tokens: 0, plan: "gone" }), PLANS);
    expect(html).toContain('data-action="enable">Enable<');
    expect(html).toContain('data-action="revoke" disabled>');
    expect(html).toContain('<option value="gone" selected>gone</option>');
  });

  test("revoking asks first: Confirm with the count, and Cancel", () => {
    const html = userPanelHtml(user(), PLANS, true);
    expect(html).toContain('data-action="revoke-confirm">Confirm revoking 2 tokens<');
    expect(html).toContain('data-action="revoke-cancel">Cancel<');
    expect(html).not.toContain('data-action="revoke">');
  });
});
