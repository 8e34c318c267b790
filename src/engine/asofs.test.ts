/** Date ranges (start/end with step) beside asof/periods. */
import { describe, expect, test } from "bun:test";
import { computeChart } from "./chart.ts";
import { factorReturns } from "../../test/support/engine/random-returns.ts";
import { parseChartParams } from "../http/params/params.ts";
import { ChartError, type ChartParams, type RollingData, type SeriesInput } from "./types.ts";

/** 6 symbols on business days from 2024-01-01 (Mon), 100 bars. */
function input(): SeriesInput {
  const L = 99;
  const labels: string[] = [];
  for (let d = Date.UTC(2024, 0, 1); labels.length < L + 1; d += 864e5) {
    const day = new Date(d).getUTCDay();
    if (day !== 0 && day !== 6) labels.push(`${new Date(d).toISOString().slice(0, 10)}T00:00:00+05:30`);
  }
  const closes = factorReturns(6, L, 9).map((r) => {
    const c = new Float64Array(L + 1);
    c[0] = 100;
    for (let k = 0; k < L; k++) c[k + 1] = c[k] * Math.exp(r[k]);
    return c;
  });
  return { symbols: ["A", "B", "C", "D", "E", "F"], labels, closes };
}

function params(q: string): ChartParams {
  const r = parseChartParams(new URLSearchParams(q), { defaultUniverse: "x" });
  if (!r.ok) throw new Error(r.errors.join(" | "));
  return r.params;
}

function error(data: SeriesInput, q: string): string {
  try {
    computeChart(data, params(q));
  } catch (e) {
    if (e instanceof ChartError) return `${e.kind}: ${e.message}`;
    throw e;
  }
  throw new Error("expected a ChartError");
}

describe("start and end", () => {
  const data = input();
  test("as-ofs are end's bar and every step-th bar before it, back to start; same numbers as periods", () => {
    // 2024-03-02 is a Saturday: end's bar is Friday 2024-03-01; start Sunday 2024-02-04 -> Monday 02-05.
    const r = computeChart(data, params("start=2024-02-04&end=2024-03-02&step=5&lookback=20")).data as RollingData;
    expect(r.type).toBe("rolling");
    expect(r.asof_dates.map((d) => d.slice(0, 10))).toEqual(["2024-02-09", "2024-02-16", "2024-02-23", "2024-03-01"]);
    const same = computeChart(data, params("asof=2024-03-01&periods=4&step=5&lookback=20")).data as RollingData;
    expect(r).toEqual(same);
  });

  test("a range of one bar is still a rolling payload", () => {
    const r = computeChart(data, params("start=2024-03-01&end=2024-03-01&lookback=20")).data as RollingData;
    expect(r.type).toBe("rolling");
    expect(r.asof_dates).toEqual(["2024-03-01T00:00:00+05:30"]);
  });

  test("clear refusals: no bar in the range, too little history, too many as-ofs", () => {
    expect(error(data, "start=2024-03-02&end=2024-03-03")).toBe(
      "out-of-range: no bar between start=2024-03-02 and end=2024-03-03 at interval 1d; the bars run from 2024-01-01 to 2024-05-17",
    );
    expect(error(data, "start=2024-01-01&end=2024-03-01&lookback=20")).toBe(
      "insufficient-history: the first as-of of start=2024-01-01 (2024-01-01) has 0 bars before it, but lookback=20 needs 20; start on or after 2024-01-29",
    );
    const small = { ...data, labels: data.labels.slice(0, 10), closes: data.closes.map((c) => c.slice(0, 10)) };
    expect(error(small, "start=2024-01-01&end=2024-03-01&lookback=20")).toBe(
      "insufficient-history: the first as-of of start=2024-01-01 (2024-01-01) has 0 bars before it, but lookback=20 needs 20; only 10 bars exist at interval 1d",
    );
    // 100 bars cannot give more than 250 as-ofs: a longer calendar of daily bars.
    const long = input();
    const L = 400;
    long.labels = Array.from(
      { length: L },
      (_, k) => `${new Date(Date.UTC(2020, 0, 1) + k * 864e5).toISOString().slice(0, 10)}T00:00:00+05:30`,
    );
    long.closes = long.closes.map(() => Float64Array.from({ length: L }, (_, k) => 100 + Math.sin(k) + k / 10));
    expect(error(long, "start=2020-03-01&end=2020-12-31&lookback=20")).toBe(
      "invalid-parameter: start=2020-03-01, end=2020-12-31 with step=1 gives 306 as-of dates at interval 1d, at most 250 are allowed; use step=2 or more, or a shorter range",
    );
  });
});
