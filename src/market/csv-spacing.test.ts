import { describe, expect, test } from "bun:test";
import { countGaps, formatGap, spacingProblem } from "./csv-spacing.ts";

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

test("countGaps measures in local time, so a daylight-saving change is still one day", () => {
  const bars = [
    { ts: Date.parse("2025-03-07T00:00:00-05:00"), offsetMin: -300, line: 2 },
    { ts: Date.parse("2025-03-10T00:00:00-04:00"), offsetMin: -240, line: 3 },
    { ts: Date.parse("2025-03-11T00:00:00-04:00"), offsetMin: -240, line: 4 },
  ];
  expect(countGaps(bars)).toEqual([g(3 * DAY, 1, 3), g(DAY, 1, 4)]);
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
