import { describe, expect, test } from "bun:test";
import { storedBars, tempDb } from "../../test/support/market-db.ts";
import { describeNifty, niftyDir } from "../../test/support/nifty.ts";
import { join } from "node:path";
import type { Interval } from "../engine/types.ts";
import type { Bar } from "./bar.ts";
import { importCsvFiles } from "./import-rules.ts";
import { bucketStart, chooseSourceInterval, divides } from "./intervals.ts";
import { resampleBars } from "./resample.ts";
import { generateSample, SAMPLE_MINUTE_DAYS, SAMPLE_SESSION_MINUTES } from "./sample-generator.ts";
import { formatLocal } from "./timestamps.ts";

const IST = 330;
const at = (iso: string) => Date.parse(iso);

describe("bucketStart", () => {
  const cases: [string, string, Interval, string][] = [
    ["1h aligns to the local hour, not the UTC hour", "2025-09-30T09:15:00+05:30", "1h", "2025-09-30T09:00:00+05:30"],
    ["15m", "2025-09-30T09:44:00+05:30", "15m", "2025-09-30T09:30:00+05:30"],
    ["1d is local midnight", "2025-09-30T15:29:00+05:30", "1d", "2025-09-30T00:00:00+05:30"],
    ["1w of a Wednesday is the Monday before", "2024-06-26T00:00:00+05:30", "1w", "2024-06-24T00:00:00+05:30"],
    ["1w of a Sunday is six days before", "2024-06-30T12:00:00+05:30", "1w", "2024-06-24T00:00:00+05:30"],
    ["1w of a Monday is itself", "2024-07-01T00:00:00+05:30", "1w", "2024-07-01T00:00:00+05:30"],
    ["1w across a year end follows ISO weeks", "2021-01-01T00:00:00+05:30", "1w", "2020-12-28T00:00:00+05:30"],
  ];
  for (const [name, bar, interval, start] of cases) {
    test(name, () => expect(formatLocal(bucketStart(at(bar), IST, interval), IST)).toBe(start));
  }

  test("a local Monday that is still Sunday in UTC stays in its own week", () => {
    // 2024-07-01T00:00+05:30 is 2024-06-30T18:30Z, a UTC Sunday.
    expect(bucketStart(at("2024-07-01T00:00:00+05:30"), IST, "1w")).toBe(at("2024-07-01T00:00:00+05:30"));
  });
});

describe("interval choice", () => {
  test("divides follows src/market/README.md § Rules (interval choice)", () => {
    expect(divides("1m", "5m")).toBe(true);
    expect(divides("5m", "15m")).toBe(true);
    expect(divides("15m", "1h")).toBe(true);
    expect(divides("1m", "1d")).toBe(true);
    expect(divides("1d", "1w")).toBe(true);
    expect(divides("1m", "1w")).toBe(false);
    expect(divides("1h", "30m")).toBe(false);
    expect(divides("1d", "1h")).toBe(false);
  });

  test("stored wins, else the finest stored divisor, else null", () => {
    expect(chooseSourceInterval("1d", ["1m", "1d"])).toBe("1d");
    expect(chooseSourceInterval("1w", ["1m", "1d"])).toBe("1d");
    expect(chooseSourceInterval("1h", ["1m", "5m", "1d"])).toBe("1m");
    expect(chooseSourceInterval("1h", ["1d"])).toBeNull();
    expect(chooseSourceInterval("1w", ["1m"])).toBeNull();
  });
});

describeNifty("resampleBars on real NIFTY-50 bars", () => {
  test("1d -> 1w on real M&M bars: the ISO week of 2024-06-24", () => {
    const t = tempDb();
    const imported = importCsvFiles(t, [join(niftyDir(), "M&M.csv")], { universe: "nifty50" });
    const bars = storedBars(t, "M&M");
    t.cleanup();
    expect(imported.errors).toEqual([]);
    const weeks = resampleBars(bars, "1w");
    const week = weeks.find((w) => formatLocal(w.ts, w.offsetMin) === "2024-06-24T00:00:00+05:30");
    // M&M.csv lines 925-929 (2024-06-24 .. 2024-06-28), by hand:
    //   open 2836.5 (Mon), high max(2923.95, 2947.0, 2912.95, 2905.0, 2896.0) = 2947.0,
    //   low min(2813.05, 2891.05, 2844.6, 2793.05, 2855.0) = 2793.05, close 2866.65 (Fri),
    //   volume 2699784 + 1910886 + 3282318 + 6900180 + 2548169 = 17341337.
    expect(week).toEqual({
      ts: at("2024-06-24T00:00:00+05:30"),
      offsetMin: IST,
      open: 2836.5,
      high: 2947.0,
      low: 2793.05,
      close: 2866.65,
      volume: 17341337,
    });
    const next = weeks[weeks.indexOf(week!) + 1]!;
    expect(formatLocal(next.ts, next.offsetMin)).toBe("2024-07-01T00:00:00+05:30");
    const total = bars.reduce((v, b) => v + b.volume, 0);
    expect(weeks.reduce((v, w) => v + w.volume, 0)).toBe(total);
  });
});

describe("resampleBars", () => {
  const minutes = generateSample().series[0]!.minute;
  const daily = generateSample().series[0]!.daily;

  test("1m -> 1d on the sample reproduces its stored daily bars", () => {
    expect(resampleBars(minutes, "1d")).toEqual(daily.slice(-SAMPLE_MINUTE_DAYS));
  });

  test("1m -> 1h: 7 local-hour buckets per 09:15-15:30 session", () => {
    const hours = resampleBars(minutes, "1h");
    expect(hours.length).toBe(7 * SAMPLE_MINUTE_DAYS);
    const day0 = hours.slice(0, 7).map((h) => formatLocal(h.ts, h.offsetMin).slice(11, 16));
    expect(day0).toEqual(["09:00", "10:00", "11:00", "12:00", "13:00", "14:00", "15:00"]);
    const first = minutes.slice(0, 45); // 09:15 .. 09:59
    expect(hours[0]).toEqual(aggregate(first, hours[0]!.ts));
    const last = minutes.slice(SAMPLE_SESSION_MINUTES - 30, SAMPLE_SESSION_MINUTES); // 15:00 .. 15:29
    expect(hours[6]).toEqual(aggregate(last, hours[6]!.ts));
  });

  test("1m -> 5m: 75 buckets per session, each aggregating 5 minutes", () => {
    const fives = resampleBars(minutes, "5m");
    expect(fives.length).toBe(75 * SAMPLE_MINUTE_DAYS);
    for (const k of [0, 1, 74, 75, 749]) expect(fives[k]).toEqual(aggregate(minutes.slice(5 * k, 5 * k + 5), minutes[5 * k]!.ts));
  });

  test("refuses unsorted input rather than producing wrong buckets", () => {
    expect(() => resampleBars([minutes[10]!, minutes[0]!], "5m")).toThrow("sorted");
  });
});

/** Straightforward reference aggregation of bars already known to form one bucket. */
function aggregate(bars: Bar[], ts: number): Bar {
  return {
    ts,
    offsetMin: bars[0]!.offsetMin,
    open: bars[0]!.open,
    high: Math.max(...bars.map((b) => b.high)),
    low: Math.min(...bars.map((b) => b.low)),
    close: bars[bars.length - 1]!.close,
    volume: bars.reduce((v, b) => v + b.volume, 0),
  };
}
