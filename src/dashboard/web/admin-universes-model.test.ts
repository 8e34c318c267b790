import { describe, expect, test } from "bun:test";
import { adminUniversesTableHtml } from "./admin-universes-model.ts";

describe("adminUniversesTableHtml", () => {
  test("each universe with its size, intervals, newest bar and the server's freshness verdict", () => {
    const html = adminUniversesTableHtml([
      { name: "nifty50", symbols: 50, intervals: ["1d", "1m"], last_bar: "2026-11-27T00:00:00+05:30", stale: true },
      { name: "sample", symbols: 12, intervals: ["1d"], last_bar: "2026-12-01T00:00:00Z", stale: false },
      { name: "empty", symbols: 0, intervals: [], last_bar: null, stale: false },
    ]);
    expect(html).toContain(
      '<th scope="row">nifty50</th><td>50</td><td>1d, 1m</td><td>2026-11-27</td><td><span class="freshness stale">Stale</span>',
    );
    expect(html).toContain('<span class="freshness fresh">Fresh</span>');
    expect(html).toContain('<td>—</td><td>—</td><td><span class="freshness empty">No bars</span>');
  });

  test("the server's sentence when it gives one; the synthetic sample marked as such", () => {
    const html = adminUniversesTableHtml([
      {
        name: "sample",
        symbols: 12,
        intervals: ["1d"],
        last_bar: "2026-12-01T00:00:00.000Z",
        stale: false,
        data_source: "synthetic",
        freshness: "Sample data, not refreshed (newest 1d bar 1.4 days old)",
      },
    ]);
    expect(html).toContain(
      '<td>2026-12-01</td><td><span class="freshness sample">Sample data, not refreshed (newest 1d bar 1.4 days old)</span>',
    );
  });

  test("none stored: how to import one", () => {
    expect(adminUniversesTableHtml([])).toContain("graph-stats import");
  });
});
