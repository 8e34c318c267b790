import type { SeriesInput } from "../engine/types.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getDataVersion } from "./data-version.ts";
import { importCsvSources } from "./csv-import.ts";
import { loadSample } from "./load-sample.ts";
import { SAMPLE_MINUTE_DAYS, sampleTradingDays } from "./sample-generator.ts";
import { sampleSeriesInput } from "./sample-series.ts";
import { loadSeries } from "./series.ts";
import { countBars, tempDb } from "../../test/support/market-db.ts";
import { getUniverse, knownSymbols } from "./universes.ts";

describe("loadSample", () => {
  const t = tempDb();
  let first: ReturnType<typeof loadSample>;
  beforeAll(() => {
    first = loadSample(t);
  });
  afterAll(() => t.cleanup());

  test("writes the synthetic universe with daily and minute bars", () => {
    expect(first.loaded).toBe(true);
    const u = getUniverse(t, "sample")!;
    expect(u.source).toBe("synthetic");
    expect(u.symbols.length).toBe(50);
    expect(knownSymbols(t)).toEqual([...u.symbols].sort());
    expect(first.minuteBars).toBe(50 * 375 * SAMPLE_MINUTE_DAYS);
    const total = t.sqlite
      .query<{ i: string; n: number }, []>("SELECT interval AS i, COUNT(*) AS n FROM bars GROUP BY interval ORDER BY interval")
      .all();
    expect(total).toEqual([
      { i: "1d", n: first.dailyBars },
      { i: "1m", n: first.minuteBars },
    ]);
    expect(countBars(t, "ALPHABANK", "1d")).toBe(sampleTradingDays().length);
    expect(first.dataVersion).toBe(getDataVersion(t));
  });

  test("is idempotent: a second call writes nothing and keeps the data version", () => {
    const v = getDataVersion(t);
    const again = loadSample(t);
    expect(again.loaded).toBe(false);
    expect(getDataVersion(t)).toBe(v);
    expect(t.sqlite.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM bars").get()!.n).toBe(first.dailyBars + first.minuteBars);
  });

  test("1m resampled to 1d equals the stored daily closes of the minute sessions", () => {
    const symbols = getUniverse(t, "sample")!.symbols;
    const stored = loadSeries(t, symbols, "1d");
    const fromMinutes = loadSeries(t, symbols, "5m"); // guard: 5m really comes from 1m
    expect(fromMinutes.sourceInterval).toBe("1m");
    const rows = t.sqlite
      .query<{ ts: number; close: number }, [string]>("SELECT ts, close FROM bars WHERE symbol = ? AND interval = '1m' ORDER BY ts")
      .all("CODEWAVE");
    const lastOfDay = new Map<string, number>();
    for (const r of rows) lastOfDay.set(new Date(r.ts + 330 * 60_000).toISOString().slice(0, 10), r.close);
    expect(lastOfDay.size).toBe(SAMPLE_MINUTE_DAYS);
    const i = symbols.indexOf("CODEWAVE");
    for (const [date, close] of lastOfDay) {
      expect(stored.input.closes[i]![stored.input.labels.indexOf(`${date}T00:00:00+05:30`)]).toBe(close);
    }
  });

  test("sampleSeriesInput (no database) equals loadSeries on the loaded sample, at 1d and 1m", () => {
    const symbols = getUniverse(t, "sample")!.symbols;
    // Plain arrays: bun's toEqual does not match NaN inside typed arrays.
    const plain = (s: SeriesInput) => ({ ...s, closes: s.closes.map((c) => Array.from(c)) });
    const daily = plain(sampleSeriesInput());
    expect(daily.closes[0]!.length).toBeGreaterThan(900);
    expect(daily.closes.some((c) => c.some(Number.isNaN))).toBe(true); // NOVAGRID before listing
    expect(daily).toEqual(plain(loadSeries(t, symbols, "1d").input));
    expect(plain(sampleSeriesInput("1m"))).toEqual(plain(loadSeries(t, symbols, "1m").input));
  });

  test("a universe named sample holding imported data is not overwritten", () => {
    const other = tempDb();
    try {
      importCsvSources(other, [{ file: "REAL.csv", text: "timestamp,open,high,low,close,volume\n2024-01-01,1,1,1,1,1\n" }], {
        universe: "sample",
      });
      expect(() => loadSample(other)).toThrow("universe 'sample' already holds imported data");
      expect(getUniverse(other, "sample")!.symbols).toEqual(["REAL"]);
    } finally {
      other.cleanup();
    }
  });
});
