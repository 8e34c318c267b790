import { describe, expect, test } from "bun:test";
import { computeTime, count, countsText, parseLimit, sourceWord, userLabel, utcSecond } from "./admin-format.ts";

describe("console formats", () => {
  test("counts group thousands with a thin space", () => {
    expect([0, 7, 999, 1000, 12_345, 1_234_567, -4200].map(count)).toEqual([
      "0",
      "7",
      "999",
      "1\u2009000",
      "12\u2009345",
      "1\u2009234\u2009567",
      "-4\u2009200",
    ]);
  });

  test("compute time in the unit that reads best", () => {
    expect([0, 850.4, 999, 1000, 12_400, 59_999, 210_000, 7_560_000].map(computeTime)).toEqual([
      "0 ms",
      "850 ms",
      "999 ms",
      "1.0 s",
      "12.4 s",
      "60.0 s",
      "3.5 min",
      "2.1 h",
    ]);
  });

  test("admitted with the refused after them only when there are any", () => {
    expect(countsText({ admitted: 12, refused: 0, uncounted: 1 })).toBe("12");
    expect(countsText({ admitted: 1200, refused: 3, uncounted: 0 })).toBe("1\u2009200 (3 refused)");
  });

  test("a limit's source, a user's label and an audit time", () => {
    expect([sourceWord("user"), sourceWord("plan"), sourceWord("default")]).toEqual(["own", "plan", "default"]);
    expect(userLabel({ id: "u1", name: "Ada", email: "a@x" })).toBe("Ada");
    expect(userLabel({ id: "u1", name: null, email: "a@x" })).toBe("a@x");
    expect(userLabel({ id: "u1", name: null, email: null })).toBe("u1");
    expect(utcSecond("2026-12-02T13:05:09.123Z")).toBe("2026-12-02 13:05:09 UTC");
    expect(utcSecond("not a time")).toBe("not a time");
  });

  test("a limit field: empty is the plan's, a whole number itself, anything else names the field", () => {
    expect(parseLimit("", "Per day")).toEqual({ ok: true, value: null });
    expect(parseLimit("  ", "Per day")).toEqual({ ok: true, value: null });
    expect(parseLimit(" 100 ", "Per day")).toEqual({ ok: true, value: 100 });
    expect(parseLimit("0", "Per day")).toEqual({ ok: true, value: 0 });
    for (const bad of ["-1", "1.5", "1e3", "ten", "1234567890"]) {
      const r = parseLimit(bad, "Per day");
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toStartWith("Per day must be a whole number");
    }
  });
});
