import { describe, expect, test } from "bun:test";
import { tempDb } from "../../test/support/market-db.ts";
import { formatGap, spacingProblem } from "./csv-spacing.ts";
import { importCsvSources } from "./import-rules.ts";

const MIN = 60_000;
const DAY = 1440 * MIN;
const g = (gapMs: number, count: number, line = 3) => ({ gapMs, count, line });

describe("spacingProblem", () => {
  const cases: [string, ReturnType<typeof g>[], "1m" | "1h" | "1d" | "1w", string | null][] = [
    ["1-minute bars as 1m are fine", [g(MIN, 370), g(17 * 3600_000 + 45 * MIN, 4)], "1m", null],
    ["1-minute bars as 1d are refused, advising 1m", [g(MIN, 370), g(DAY, 4)], "1d", "--interval 1m"],
    ["daily bars with weekends as 1d are fine", [g(DAY, 40), g(3 * DAY, 10), g(4 * DAY, 1)], "1d", null],
    ["daily bars as 1h are refused, advising 1d", [g(DAY, 40), g(3 * DAY, 10)], "1h", "--interval 1d"],
    ["weekly bars as 1d are refused, advising 1w", [g(7 * DAY, 50)], "1d", "--interval 1w"],
    ["one odd gap is no evidence either way", [g(3 * DAY, 1)], "1d", null],
    ["2-minute bars as 1m: no interval fits, the message says so", [g(2 * MIN, 100)], "1m", "resample"],
    ["bars closer than the interval, however rare, are refused", [g(DAY, 40), g(MIN, 1)], "1d", "only 1m apart"],
    ["no gaps at all (one bar)", [], "1d", null],
  ];
  for (const [name, gaps, interval, expected] of cases) {
    test(name, () => {
      const p = spacingProblem(gaps, interval);
      if (expected === null) expect(p).toBeNull();
      else expect(p?.reason).toContain(expected);
    });
  }
});

test("gaps are measured in local time: daily bars across a daylight-saving change import as 1d", () => {
  // 2025-03-09 is a spring-forward Sunday in New York: local midnights 23 hours apart in UTC.
  const t = tempDb();
  try {
    const text =
      "timestamp,open,high,low,close,volume\n2025-03-08T00:00:00-05:00,1,1,1,1,1\n2025-03-09T00:00:00-04:00,1,1,1,1,1\n2025-03-10T00:00:00-04:00,1,1,1,1,1\n";
    expect(importCsvSources(t, [{ file: "NY.csv", text }], { universe: "u", interval: "1d" }).errors).toEqual([]);
  } finally {
    t.cleanup();
  }
});

test("formatGap names intervals and otherwise the largest whole unit", () => {
  expect([formatGap(MIN), formatGap(DAY), formatGap(2 * DAY), formatGap(90 * MIN), formatGap(1500)]).toEqual([
    "1m",
    "1d",
    "2d",
    "90m",
    "1500ms",
  ]);
});
