import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { describeNifty, niftyFiles } from "../../test/support/nifty.ts";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { ChartError } from "../engine/types.ts";
import { importCsvFiles, importCsvSources } from "./import-rules.ts";
import { loadSample } from "./load-sample.ts";
import { loadSeries } from "./series-loader.ts";
import { tempDb } from "../../test/support/market-db.ts";
import { getUniverse } from "./universes.ts";

/** date -> close straight from a CSV's text (independent of the importer). */
function closesFromFile(path: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of readFileSync(path, "utf8").trim().split("\n").slice(1)) {
    const f = line.split(",");
    out.set(f[0]!.slice(0, 10), Number(f[4]));
  }
  return out;
}

describeNifty("loadSeries on the real NIFTY data", () => {
  const t = tempDb();
  const files = niftyFiles();
  let symbols: string[];
  beforeAll(() => {
    importCsvFiles(t, files, { universe: "nifty50" });
    symbols = getUniverse(t, "nifty50")!.symbols;
  });
  afterAll(() => t.cleanup());

  test("daily: union calendar, local labels, closes aligned with NaN before a listing", () => {
    const { input, missing, sourceInterval } = loadSeries(t, symbols, "1d");
    expect(sourceInterval).toBe("1d");
    expect(missing).toEqual([]);
    expect(input.symbols).toEqual(symbols);
    const calendar = new Set<string>();
    for (const f of files) for (const d of closesFromFile(f).keys()) calendar.add(d);
    expect(input.labels.length).toBe(calendar.size);
    expect(input.labels[0]).toBe("2020-10-01T00:00:00+05:30");
    expect(input.labels.at(-1)).toBe("2025-09-30T00:00:00+05:30");
    expect(input.labels.map((l) => l.slice(0, 10))).toEqual([...calendar].sort());

    for (const name of ["ETERNAL", "M&M", "JIOFIN"]) {
      const expected = closesFromFile(files.find((f) => basename(f, ".csv") === name)!);
      const series = input.closes[symbols.indexOf(name)]!;
      input.labels.forEach((label, k) => {
        const c = expected.get(label.slice(0, 10));
        if (c === undefined) expect(series[k]).toBeNaN();
        else expect(series[k]).toBe(c);
      });
    }
    const eternal = input.closes[symbols.indexOf("ETERNAL")]!;
    const listed = input.labels.indexOf("2021-07-23T00:00:00+05:30");
    expect(listed).toBeGreaterThan(0);
    expect(Array.from(eternal.slice(0, listed)).every(Number.isNaN)).toBe(true);
    expect(eternal[listed]).toBe(126.0);
  });

  test("symbols keep the given order and unknown ones are reported missing", () => {
    const { input, missing } = loadSeries(t, ["TCS", "NOPE", "INFY"], "1d");
    expect(input.symbols).toEqual(["TCS", "NOPE", "INFY"]);
    expect(missing).toEqual(["NOPE"]);
    expect(Array.from(input.closes[1]!).every(Number.isNaN)).toBe(true);
    expect(input.closes[0]![0]).toBe(closesFromFile(files.find((f) => f.endsWith("TCS.csv"))!).get("2020-10-01")!);
  });

  test("a later-listed symbol alone has a calendar starting at its listing", () => {
    expect(loadSeries(t, ["ETERNAL"], "1d").input.labels[0]).toBe("2021-07-23T00:00:00+05:30");
  });

  test("weekly is resampled from daily on ISO weeks", () => {
    const { input, sourceInterval } = loadSeries(t, ["M&M"], "1w");
    expect(sourceInterval).toBe("1d");
    const k = input.labels.indexOf("2024-06-24T00:00:00+05:30");
    expect(input.closes[0]![k]).toBe(2866.65); // Friday 2024-06-28's close in M&M.csv
    expect(input.labels.every((l) => new Date(l.slice(0, 10)).getUTCDay() === 1)).toBe(true);
  });

  test("an interval no stored data can serve is a clear interval-unavailable refusal", () => {
    let err: unknown;
    try {
      loadSeries(t, ["TCS", "INFY"], "1h");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ChartError);
    expect((err as ChartError).kind).toBe("interval-unavailable");
    expect((err as ChartError).message).toBe(
      "interval 1h is not available for these symbols: their bars are stored at 1d only, and 1h can only be built from 1m, 5m, 15m, 30m, 1h",
    );
  });

  test("all symbols unknown: empty calendar, every symbol missing, no error", () => {
    const r = loadSeries(t, ["X1", "X2"], "1h");
    expect(r).toEqual({
      input: { symbols: ["X1", "X2"], labels: [], closes: [new Float64Array(0), new Float64Array(0)] },
      missing: ["X1", "X2"],
      unavailable: [],
      sourceInterval: null,
    });
  });

  test("a new import is visible at once (the cache is keyed by the data version)", () => {
    const before = loadSeries(t, ["TCS"], "1d");
    expect(loadSeries(t, ["TCS"], "1d").input).toBe(before.input);
    importCsvSources(t, [{ file: "TCS.csv", text: "timestamp,open,high,low,close,volume\n2025-10-01T00:00:00+05:30,1,2,1,2,5\n" }], {
      universe: "nifty50",
    });
    const after = loadSeries(t, ["TCS"], "1d");
    expect(after.input.labels.at(-1)).toBe("2025-10-01T00:00:00+05:30");
    expect(after.input.closes[0]!.at(-1)).toBe(2);
  });
});

describe("loadSeries on the synthetic sample", () => {
  const t = tempDb();
  let symbols: string[];
  beforeAll(() => {
    loadSample(t);
    symbols = getUniverse(t, "sample")!.symbols;
  });
  afterAll(() => t.cleanup());

  test("1h comes from 1m, closes are each hour's last minute", () => {
    const hourly = loadSeries(t, symbols, "1h");
    const minute = loadSeries(t, symbols, "1m");
    expect(hourly.sourceInterval).toBe("1m");
    expect(hourly.input.labels.length).toBe(70);
    expect(hourly.input.labels.slice(0, 2)).toEqual(["2025-09-17T09:00:00+05:30", "2025-09-17T10:00:00+05:30"]);
    const k = minute.input.labels.indexOf("2025-09-17T09:59:00+05:30");
    expect(hourly.input.closes[3]![0]).toBe(minute.input.closes[3]![k]!);
    expect(hourly.input.closes[3]!.at(-1)).toBe(minute.input.closes[3]!.at(-1)!);
  });

  test("a symbol with bars only at another interval is reported unavailable, not missing", () => {
    importCsvSources(t, [{ file: "ONLYMIN.csv", text: "timestamp,open,high,low,close,volume\n2025-09-30T09:15:00+05:30,1,1,1,1,1\n" }], {
      universe: "m",
      interval: "1m",
    });
    const r = loadSeries(t, ["ALPHABANK", "ONLYMIN"], "1d");
    expect(r.sourceInterval).toBe("1d");
    expect(r.unavailable).toEqual(["ONLYMIN"]);
    expect(r.missing).toEqual([]);
    expect(Array.from(r.input.closes[1]!).every(Number.isNaN)).toBe(true);
  });

  test("stored 1d is served as is (not from 1m), and a symbol listed late has NaN before", () => {
    const d = loadSeries(t, symbols, "1d");
    expect(d.sourceInterval).toBe("1d");
    expect(d.input.labels[0]).toBe("2022-01-03T00:00:00+05:30");
    const nova = d.input.closes[symbols.indexOf("NOVAGRID")]!;
    const listed = d.input.labels.indexOf("2024-03-01T00:00:00+05:30");
    expect(nova[listed - 1]).toBeNaN();
    expect(nova[listed]).toBeGreaterThan(0);
  });
});
