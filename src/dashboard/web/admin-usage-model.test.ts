import { describe, expect, test } from "bun:test";
import type { UsageOverview } from "./admin-types.ts";
import {
  computeTableHtml,
  refusedTableHtml,
  topUsersTableHtml,
  totalsText,
  usageDaysTableHtml,
  usageOverviewOption,
} from "./admin-usage-model.ts";

const day = (d: string, admitted: number, refused: number, server_errors = 0) => ({
  day: d,
  admitted,
  refused,
  uncounted: 0,
  refunded: 0,
  server_errors,
});

const U: UsageOverview = {
  days: [day("2026-11-30", 5, 1), day("2026-12-01", 0, 0), day("2026-12-02", 1200, 40, 2)],
  top_users: [{ user: "u-ada", email: "ada@lab.example", admitted: 1000, compute_ms: 65_000 }],
  refused_by_code: [
    { code: "RATE_LIMITED", requests: 30 },
    { code: "DAILY_QUOTA_EXCEEDED", requests: 11 },
  ],
  compute_by_user: [{ user: "u-ada", compute_ms: 65_000 }],
  totals: { admitted: 1205, refused: 41, uncounted: 0, refunded: 2, server_errors: 2, compute_ms: 66_500 },
};

describe("usage overview", () => {
  test("the totals sentence", () => {
    expect(totalsText(U)).toBe("1\u2009205 admitted · 41 refused · 2 refunded · 2 server errors (5xx) · 1.1 min of compute");
  });

  test("the chart: a category per day, admitted and refused stacked, server errors a line, no animation", () => {
    const o = usageOverviewOption(U);
    expect(o.animation).toBe(false);
    expect(o.xAxis.data).toEqual(["2026-11-30", "2026-12-01", "2026-12-02"]);
    expect(o.xAxis.axisLabel.formatter("2026-12-02")).toBe("12-02");
    expect(o.series.map((s) => [s.type, s.name, "stack" in s ? s.stack : null])).toEqual([
      ["bar", "Admitted", "requests"],
      ["bar", "Refused", "requests"],
      ["line", "Server errors", null],
    ]);
    expect(o.series.map((s) => s.data)).toEqual([
      [5, 0, 1200],
      [1, 0, 40],
      [0, 0, 2],
    ]);
    expect("max" in o.yAxis).toBe(false); // ECharts' rounded scale
    const quiet = usageOverviewOption({ ...U, days: [day("2026-12-02", 0, 0)] });
    expect("max" in quiet.yAxis && quiet.yAxis.max).toBe(1); // a range with no requests still draws an axis
    const tip = o.tooltip.formatter([{ name: "2026-12-02", seriesName: "Admitted", seriesIndex: 0, value: 1200 }]);
    expect(tip).toContain("2026-12-02");
    expect(tip).toContain('<span class="swatch usage-admitted"></span>Admitted: 1\u2009200');
    expect(tip).not.toContain("style=");
  });

  test("the tables: days newest first, the top users with compute, refusals by code, compute by user", () => {
    const days = usageDaysTableHtml(U);
    expect(days.indexOf("2026-12-02")).toBeLessThan(days.indexOf("2026-11-30"));
    expect(days).toContain('<tr><th scope="row">2026-12-02</th><td>1\u2009200</td><td>40</td><td>0</td><td>0</td><td>2</td></tr>');
    expect(topUsersTableHtml(U)).toContain(
      'u-ada</span><span class="cell-sub">ada@lab.example</span></th><td>1\u2009000</td><td>1.1 min</td>',
    );
    expect(refusedTableHtml(U)).toContain("<code>RATE_LIMITED</code></th><td>30</td>");
    expect(computeTableHtml(U)).toContain('<th scope="row">u-ada</th><td>1.1 min</td>');
  });

  test("an empty range says so in each table", () => {
    const empty: UsageOverview = { ...U, top_users: [], refused_by_code: [], compute_by_user: [] };
    expect(topUsersTableHtml(empty)).toContain("No requests in this range.");
    expect(refusedTableHtml(empty)).toContain("Nothing refused in this range.");
    expect(computeTableHtml(empty)).toContain("No compute in this range.");
  });
});
