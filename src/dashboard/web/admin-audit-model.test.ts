import { describe, expect, test } from "bun:test";
import { auditTableHtml, changeLines, valueText } from "./admin-audit-model.ts";

describe("changeLines", () => {
  test("only the fields that changed, each old → new", () => {
    expect(changeLines({ plan: "free", per_day: null, disabled: false }, { plan: "team", per_day: null, disabled: false })).toEqual([
      "plan: free → team",
    ]);
    expect(changeLines({ per_minute: null, per_day: 30 }, { per_minute: 5, per_day: 100 })).toEqual([
      "per_minute: null → 5",
      "per_day: 30 → 100",
    ]);
  });

  test("what was created is listed with =, what was removed with 'was'", () => {
    expect(changeLines(null, { name: "team", per_minute: 10 })).toEqual(["name = team", "per_minute = 10"]);
    expect(changeLines({ name: "team" }, null)).toEqual(["name was team"]);
    expect(changeLines({ a: 1 }, { b: 2 })).toEqual(["a was 1", "b = 2"]);
  });

  test("values that are not objects, and nothing at all", () => {
    expect(changeLines(null, null)).toEqual([]);
    expect(changeLines(false, true)).toEqual(["false → true"]);
    expect(changeLines(null, ["j1", "j2"])).toEqual(['["j1","j2"]']);
  });

  test("long lists and long values are shortened", () => {
    expect(valueText(["a", "b", "c", "d"])).toBe("[4 items]");
    expect(valueText("x".repeat(100))).toHaveLength(80);
    expect(valueText(undefined)).toBe("—");
  });
});

describe("auditTableHtml", () => {
  test("a row per entry: when to the second, who, what, the target and the change; escaped", () => {
    const html = auditTableHtml([
      {
        id: 7,
        ts: "2026-12-02T13:05:09.000Z",
        actor: "console:u-root",
        action: "user.plan",
        target: "u-ada",
        before: { plan: "free" },
        after: { plan: "<b>team</b>" },
      },
    ]);
    expect(html).toContain('<tr data-audit="7">');
    expect(html).toContain('<th scope="row">2026-12-02 13:05:09 UTC</th>');
    expect(html).toContain("<code>console:u-root</code>");
    expect(html).toContain("<code>user.plan</code>");
    expect(html).toContain("plan: free → &lt;b&gt;team&lt;/b&gt;");
    expect(html).not.toContain("<b>");
    expect(auditTableHtml([])).toContain("No entries.");
  });
});
