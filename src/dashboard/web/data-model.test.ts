import { describe, expect, test } from "bun:test";
import {
  barTime,
  calendarText,
  coverageTableHtml,
  type DataCatalogue,
  freshness,
  STALE_AFTER_DAYS,
  type UniverseDetail,
  universesTableHtml,
} from "./data-model.ts";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 2, 9, 0);
const listing = (name: string, data_source = "imported", intervals = ["1d"]) => ({
  name,
  symbols: 2,
  intervals,
  first_bar: "2026-11-02T00:00:00+05:30",
  last_bar: "2026-11-27T00:00:00+05:30",
  data_source,
  data_version: 7,
});

describe("freshness", () => {
  test("the daily bars are judged: fresh up to STALE_AFTER_DAYS, stale past it, as the Prometheus alert", () => {
    expect(STALE_AFTER_DAYS).toBe(4);
    const at = (days: number) => [
      { universe: "a", interval: "1d", ts: NOW - days * DAY },
      { universe: "a", interval: "1m", ts: NOW - 3_600_000 },
    ];
    expect(freshness(listing("a"), at(4), NOW)).toEqual({
      interval: "1d",
      ageDays: 4,
      state: "fresh",
      text: "Fresh: newest 1d bar 4.0 days old",
    });
    expect(freshness(listing("a"), at(4.5), NOW)).toEqual({
      interval: "1d",
      ageDays: 4.5,
      state: "stale",
      text: "Stale: newest 1d bar 4.5 days old",
    });
    expect(freshness(listing("a"), at(4.5), NOW, 7).state).toBe("fresh");
    // Another universe's bars are not this one's.
    expect(freshness(listing("b"), at(1), NOW)).toEqual({ interval: null, ageDays: null, state: "empty", text: "No bars" });
  });

  test("an intraday-only universe shows its age, never stale; the synthetic sample is never stale", () => {
    const minute = [
      { universe: "m", interval: "1m", ts: NOW - 10 * DAY },
      { universe: "m", interval: "5m", ts: NOW - 2 * 3_600_000 },
    ];
    expect(freshness(listing("m", "imported", ["1m", "5m"]), minute, NOW)).toMatchObject({
      interval: "5m",
      state: "fresh",
      text: "Fresh: newest 5m bar 2 h old",
    });
    const sample = freshness(listing("sample", "synthetic"), [{ universe: "sample", interval: "1d", ts: NOW - 400 * DAY }], NOW);
    expect(sample).toMatchObject({ state: "sample", text: "Sample data, not refreshed (newest 1d bar 400.0 days old)" });
  });
});

describe("the tables", () => {
  test("barTime: a daily bar's date, an intraday bar to the minute with its offset", () => {
    expect(barTime("2025-09-30T00:00:00+05:30")).toBe("2025-09-30");
    expect(barTime("2025-09-30T15:29:00+05:30")).toBe("2025-09-30 15:29 +05:30");
    expect(barTime(null)).toBe("—");
  });

  test("the universes: a row each, escaped, with its freshness mark", () => {
    const c: DataCatalogue = {
      universes: [listing("desk"), { ...listing("<x>"), data_source: "imported" }],
      last_bars: [{ universe: "desk", interval: "1d", ts: NOW - 6 * DAY }],
      checked_at: NOW,
    };
    const html = universesTableHtml(c);
    expect(html).toContain(
      `<tr data-universe="desk"><th scope="row">desk</th><td>2</td><td>1d</td><td>2026-11-02</td><td>2026-11-27</td><td>imported</td><td>7</td><td><span class="freshness stale">Stale: newest 1d bar 6.0 days old</span></td></tr>`,
    );
    expect(html).toContain(`<th scope="row">&lt;x&gt;</th>`);
    expect(html).toContain(`<span class="freshness empty">No bars</span>`);
    expect(universesTableHtml({ universes: [], last_bars: [], checked_at: NOW })).toContain("No universe is stored yet");
  });

  test("the coverage: a row per member and interval, name and sector where known, missing bars marked, an absent interval said", () => {
    const d: UniverseDetail = {
      name: "desk",
      intervals: ["1m", "1d"],
      first_bar: null,
      last_bar: null,
      data_source: "imported",
      data_version: 3,
      calendar: {
        "1d": { first: "2026-11-02T00:00:00+05:30", last: "2026-11-27T00:00:00+05:30", bars: 20 },
        "1m": { first: "2026-11-27T09:15:00+05:30", last: "2026-11-27T09:16:00+05:30", bars: 2 },
      },
      symbols: [
        {
          symbol: "AAA",
          name: "Alpha & Co",
          sector: "banks",
          industry: null,
          coverage: { "1d": { first: "2026-11-02T00:00:00+05:30", last: "2026-11-27T00:00:00+05:30", bars: 19, missing: 1 } },
        },
        { symbol: "BBB", name: null, sector: null, industry: null, coverage: {} },
      ],
    };
    const html = coverageTableHtml(d);
    expect(html).toContain("<caption>Coverage of desk: 2 symbols</caption>");
    expect(html).toContain(
      `<tr data-symbol="AAA" data-interval="1m"><th scope="row" rowspan="2">AAA</th><td rowspan="2">Alpha &amp; Co</td><td rowspan="2">banks</td><td>1m</td><td colspan="4" class="missing">no bars at this interval</td></tr>`,
    );
    expect(html).toContain(
      `<tr data-symbol="AAA" data-interval="1d"><td>1d</td><td>2026-11-02</td><td>2026-11-27</td><td>19</td><td class="missing">1</td></tr>`,
    );
    expect(html).toContain(`<td rowspan="2">—</td><td rowspan="2">—</td>`);
    expect(html.match(/<tr data-symbol=/g)?.length).toBe(4);
    expect(calendarText(d)).toBe(
      "Calendar of desk: 1m: 2 bars, 2026-11-27 09:15 +05:30 to 2026-11-27 09:16 +05:30; 1d: 20 bars, 2026-11-02 to 2026-11-27.",
    );
  });
});
