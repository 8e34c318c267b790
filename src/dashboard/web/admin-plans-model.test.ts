import { describe, expect, test } from "bun:test";
import { plansTableHtml, readPlanForm } from "./admin-plans-model.ts";

describe("plansTableHtml", () => {
  test("a row per plan with its limits, users and last change (built in for free's defaults), and an Edit button", () => {
    const html = plansTableHtml([
      { name: "free", per_minute: 1, per_day: 30, users: 1200, updated_at: null },
      { name: "team", per_minute: 10, per_day: 2000, users: 3, updated_at: "2026-12-01T10:00:00.000Z" },
    ]);
    const rows = html.split("<tr data-plan=").slice(1);
    expect(rows[0]).toContain("<td>1/min</td>\n<td>30/day</td>\n<td>1\u2009200</td>");
    expect(rows[0]).toContain("built in");
    expect(rows[1]).toContain("<td>2\u2009000/day</td>");
    expect(rows[1]).toContain("2026-12-01 10:00:00 UTC");
    expect(rows[1]).toContain('aria-label="Edit plan team"');
  });
});

describe("readPlanForm", () => {
  test("a new plan: a valid name and two whole numbers make the body", () => {
    expect(readPlanForm({ name: " research ", perMinute: "10", perDay: "5000" }, true)).toEqual({
      ok: true,
      plan: { name: "research", per_minute: 10, per_day: 5000 },
    });
  });

  test("each mistake is said, naming the field; an edited plan's name is not checked (it stays)", () => {
    const bad = readPlanForm({ name: "Research Team", perMinute: "", perDay: "1.5" }, true);
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.messages).toHaveLength(3);
      expect(bad.messages[0]).toStartWith("The name must be 1-64 of a-z");
      expect(bad.messages[1]).toStartWith("Requests per minute must be a whole number");
      expect(bad.messages[2]).toStartWith("Requests per day must be a whole number");
    }
    expect(readPlanForm({ name: "free", perMinute: "2", perDay: "60" }, false).ok).toBe(true);
    expect(readPlanForm({ name: "-x", perMinute: "2", perDay: "60" }, true).ok).toBe(false);
  });
});
