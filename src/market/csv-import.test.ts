import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { describeNifty, niftyFiles } from "../../test/support/nifty.ts";
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { ImportError } from "./csv-import.ts";
import { importCsvFiles, importCsvSources } from "./import-rules.ts";
import { getDataVersion } from "./data-version.ts";
import { loadSample } from "./load-sample.ts";
import { countBars, tempDb } from "../../test/support/market-db.ts";
import { getUniverse, knownSymbols, listUniverses } from "./universes.ts";

const HEADER = "timestamp,open,high,low,close,volume";
const stem = (p: string) => basename(p, ".csv");
/** Data rows of a CSV counted from the raw text, independent of the parser under test. */
const dataLines = (p: string) => readFileSync(p, "utf8").trim().split("\n").length - 1;

describeNifty("importing the real NIFTY-50 folder", () => {
  const t = tempDb();
  const files = niftyFiles();
  let first: ReturnType<typeof importCsvFiles>;
  beforeAll(() => {
    first = importCsvFiles(t, files, { universe: "nifty50" });
  });
  afterAll(() => t.cleanup());

  test("imports all 50 files into universe nifty50 in file order", () => {
    expect(first.errors).toEqual([]);
    expect(first.filesImported).toBe(50);
    const u = getUniverse(t, "nifty50")!;
    expect(u.source).toBe("imported");
    expect(u.symbols).toEqual(files.map(stem));
    expect(u.symbols).toContain("M&M");
    expect(u.symbols).toContain("BAJAJ-AUTO");
    expect(listUniverses(t)).toEqual(["nifty50"]);
    expect(knownSymbols(t)).toEqual([...u.symbols].sort());
  });

  test("stores every row of every file", () => {
    const expected = files.reduce((n, f) => n + dataLines(f), 0);
    expect(first.rows).toBe(expected);
    expect(first.inserted).toBe(expected);
    for (const f of files) expect(countBars(t, stem(f))).toBe(dataLines(f));
  });

  test("stores the bar values and the +05:30 offset of the source", () => {
    const row = t.sqlite
      .query("SELECT ts, offset_min, open, high, low, close, volume FROM bars WHERE symbol = 'M&M' ORDER BY ts LIMIT 1")
      .get();
    // From M&M.csv line 2: 2020-10-01 00:00:00+05:30,614.7,621.9,608.15,610.15,3842331,0
    expect(row).toEqual({
      ts: Date.parse("2020-10-01T00:00:00+05:30"),
      offset_min: 330,
      open: 614.7,
      high: 621.9,
      low: 608.15,
      close: 610.15,
      volume: 3842331,
    });
  });

  test("ETERNAL starts on 2021-07-23", () => {
    const first = t.sqlite.query<{ ts: number }, []>("SELECT MIN(ts) AS ts FROM bars WHERE symbol = 'ETERNAL'").get()!;
    expect(first.ts).toBe(Date.parse("2021-07-23T00:00:00+05:30"));
  });

  test("re-importing is idempotent and, changing nothing, leaves the data version alone", () => {
    const before = getDataVersion(t);
    const again = importCsvFiles(t, files, { universe: "nifty50" });
    expect(again.inserted).toBe(0);
    expect(again.updated).toBe(0);
    expect(again.unchanged).toBe(first.rows);
    expect(again.appended).toEqual([]);
    expect(t.sqlite.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM bars").get()!.n).toBe(first.rows);
    expect(getDataVersion(t)).toBe(before);
    expect(again.dataVersion).toBe(before);
    expect(getUniverse(t, "nifty50")!.symbols).toEqual(files.map(stem));
  });
});

describe("import rules", () => {
  let t: ReturnType<typeof tempDb>;
  beforeAll(() => {
    t = tempDb();
  });
  afterAll(() => t.cleanup());

  test("a file with a bad row is rejected whole while the other files import", () => {
    const good = join(t.dir, "GOOD.csv");
    const bad = join(t.dir, "bad.csv");
    writeFileSync(good, `${HEADER}\n2024-01-01,10,11,9,10.5,100\n2024-01-02,10.5,12,10,11,200\n`);
    writeFileSync(bad, `${HEADER}\n2024-01-01,10,11,9,10.5,100\n2024-01-02,10.5,12,10,11,200\n2024-01-03,10,9,11,10,5\n`);
    const before = getDataVersion(t);
    const s = importCsvFiles(t, [bad, good], { universe: "mixed" });
    expect(s.errors).toEqual([`${bad}:4: high 9 is below low 11`]);
    expect(s.files.map((f) => [stem(f.file), f.ok])).toEqual([
      ["bad", false],
      ["GOOD", true],
    ]);
    expect(countBars(t, "bad")).toBe(0);
    expect(countBars(t, "GOOD")).toBe(2);
    expect(getUniverse(t, "mixed")!.symbols).toEqual(["GOOD"]);
    expect(getDataVersion(t)).toBe(before + 1);
  });

  test("a changed row is updated in place, and the universe is extended at the end", () => {
    const s = importCsvSources(
      t,
      [
        { file: "GOOD.csv", text: `${HEADER}\n2024-01-02,10.5,12,10,11.25,200\n2024-01-03,11,12,10,11.5,300\n` },
        { file: "NEW.csv", text: `${HEADER}\n2024-01-02,1,1,1,1,1\n` },
      ],
      { universe: "mixed" },
    );
    expect([s.inserted, s.updated, s.unchanged]).toEqual([2, 1, 0]);
    expect(s.appended).toEqual(["NEW"]);
    expect(getUniverse(t, "mixed")!.symbols).toEqual(["GOOD", "NEW"]);
    const close = t.sqlite.query("SELECT close FROM bars WHERE symbol = 'GOOD' AND ts = ?").get(Date.UTC(2024, 0, 2));
    expect(close).toEqual({ close: 11.25 });
  });

  test("a long CSV with a symbol column imports each symbol in first-appearance order", () => {
    const s = importCsvSources(
      t,
      [
        {
          file: "long.csv",
          text:
            "symbol,timestamp,open,high,low,close,volume\n" +
            "QQQ,2024-01-01T00:00:00Z,1,2,1,2,10\nAAA,2024-01-01T00:00:00Z,5,5,5,5,1\nQQQ,2024-01-02T00:00:00Z,2,3,2,3,10\n",
        },
      ],
      { universe: "long" },
    );
    expect(s.errors).toEqual([]);
    expect(s.symbols).toEqual(["QQQ", "AAA"]);
    expect(getUniverse(t, "long")!.symbols).toEqual(["QQQ", "AAA"]);
    expect(countBars(t, "QQQ")).toBe(2);
  });

  test("plain dates are stored at midnight of the default offset (UTC unless given)", () => {
    importCsvSources(t, [{ file: "PLAIN.csv", text: `${HEADER}\n2024-03-01,1,1,1,1,1\n` }], { universe: "plain" });
    importCsvSources(t, [{ file: "PLAININ.csv", text: `${HEADER}\n2024-03-01,1,1,1,1,1\n` }], { universe: "plain", defaultOffsetMin: 330 });
    const q = t.sqlite.query<{ ts: number; offset_min: number }, [string]>("SELECT ts, offset_min FROM bars WHERE symbol = ?");
    expect(q.get("PLAIN")).toEqual({ ts: Date.UTC(2024, 2, 1), offset_min: 0 });
    expect(q.get("PLAININ")).toEqual({ ts: Date.parse("2024-03-01T00:00:00+05:30"), offset_min: 330 });
  });

  test("bars go under the requested interval", () => {
    importCsvSources(t, [{ file: "MIN.csv", text: `${HEADER}\n2024-03-01T09:15:00+05:30,1,1,1,1,1\n` }], { universe: "m", interval: "1m" });
    expect(countBars(t, "MIN", "1m")).toBe(1);
    expect(countBars(t, "MIN", "1d")).toBe(0);
  });

  test("an unreadable file is reported like a bad one", () => {
    const missing = join(t.dir, "NOPE.csv");
    const s = importCsvFiles(t, [missing], { universe: "mixed" });
    expect(s.errors).toEqual([`${missing}: cannot read: no such file`]);
    expect(s.filesRejected).toBe(1);
  });

  test("bad interval, bad universe name and the synthetic universe are refused up front", () => {
    const src = [{ file: "A.csv", text: `${HEADER}\n2024-01-01,1,1,1,1,1\n` }];
    expect(() => importCsvSources(t, src, { universe: "x", interval: "2h" })).toThrow(
      "interval must be one of 1m 5m 15m 30m 1h 1d 1w, got '2h'",
    );
    expect(() => importCsvSources(t, src, { universe: "no spaces" })).toThrow(ImportError);
    loadSample(t);
    expect(() => importCsvSources(t, src, { universe: "sample" })).toThrow("universe 'sample' is the synthetic sample");
    expect(countBars(t, "A")).toBe(0);
  });
});
