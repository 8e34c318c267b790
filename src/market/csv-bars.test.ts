/**
 * The row rules of csv-bars.ts (columns, numbers, prices, OHLC order, volume, symbols, duplicates),
 * through the importer as `import` runs it (stageFile): a good file's bars as stored, a bad file's
 * `file:line: reason` messages and nothing written.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { countBars, storedBars, tempDb } from "../../test/support/market-db.ts";
import { symbolFromFileName } from "./csv-bars.ts";
import { importCsvSources } from "./import-rules.ts";
import type { ImportOptions } from "./csv-import.ts";

const HEADER = "timestamp,open,high,low,close,volume,oi";
let t: ReturnType<typeof tempDb>;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.cleanup());

const importText = (file: string, text: string, opts: Partial<ImportOptions> = {}) =>
  importCsvSources(t, [{ file, text }], { universe: "u", ...opts });
const ok = (text: string, file = "M&M.csv", opts: Partial<ImportOptions> = {}) => {
  const s = importText(file, text, opts);
  if (s.errors.length > 0) throw new Error(s.errors.join("\n"));
  return s;
};
const errorsOf = (text: string, file = "X.csv") => {
  const s = importText(file, text);
  if (s.filesRejected !== 1) throw new Error("expected the file to be rejected");
  expect(s.inserted).toBe(0);
  return s.errors;
};

describe("bar rows through the importer", () => {
  test("per-symbol file: the stem is the symbol and extra columns are ignored", () => {
    const s = ok(`${HEADER}\n2020-10-01 00:00:00+05:30,614.7,621.9,608.15,610.15,3842331,0\n`);
    expect(s.symbols).toEqual(["M&M"]);
    expect(storedBars(t, "M&M")).toEqual([
      { ts: Date.UTC(2020, 8, 30, 18, 30), offsetMin: 330, open: 614.7, high: 621.9, low: 608.15, close: 610.15, volume: 3842331 },
    ]);
  });

  test("columns may come in any order and any case", () => {
    ok("Close,VOLUME,timestamp,Low,High,Open\n10,5,2024-01-02,9,11,9.5\n", "A.csv");
    expect(storedBars(t, "A")[0]).toMatchObject({ open: 9.5, high: 11, low: 9, close: 10, volume: 5 });
  });

  test("long file: symbols in first-appearance order, bars by time", () => {
    const s = ok(
      "symbol,timestamp,open,high,low,close,volume\n" + "ZED,2024-01-03,2,2,2,2,1\nABC,2024-01-03,1,1,1,1,1\nZED,2024-01-02,3,3,3,3,1\n",
      "long.csv",
    );
    expect(s.symbols).toEqual(["ZED", "ABC"]);
    expect(storedBars(t, "ZED").map((b) => b.close)).toEqual([3, 2]);
    expect(s.rows).toBe(3);
  });

  test("plain dates use the default offset", () => {
    ok(`${HEADER}\n2024-01-02,1,1,1,1,0,0\n`, "A.csv", { defaultOffsetMin: 330 });
    expect(storedBars(t, "A")[0]).toMatchObject({ ts: Date.UTC(2024, 0, 1, 18, 30), offsetMin: 330 });
  });

  test("--price adj_close scales every price by adjusted close / close", () => {
    ok("Date,Open,High,Low,Close,Adj Close,Volume\n2024-01-02,10,12,8,10,5,7\n", "A.csv", { price: "adj_close" });
    expect(storedBars(t, "A")[0]).toMatchObject({ open: 5, high: 6, low: 4, close: 5, volume: 7 });
  });

  const bad: [string, string, string][] = [
    ["bad number", "2024-01-03,1,abc,1,1,1,0", "X.csv:3: bad number in 'high': 'abc'"],
    ["empty number", "2024-01-03,1,2,1,,1,0", "X.csv:3: bad number in 'close': ''"],
    ["zero price", "2024-01-03,0,2,1,1,1,0", "X.csv:3: 'open' must be a positive price, got 0"],
    ["negative price", "2024-01-03,1,2,-1,1,1,0", "X.csv:3: 'low' must be a positive price, got -1"],
    ["negative volume", "2024-01-03,1,2,1,1,-5,0", "X.csv:3: negative volume -5"],
    ["high below low", "2024-01-03,1,1,2,1,1,0", "X.csv:3: high 1 is below low 2"],
    ["open above high", "2024-01-03,3,2,1,1,1,0", "X.csv:3: open 3 is outside low 1 … high 2"],
    ["close below low", "2024-01-03,1,2,1,0.5,1,0", "X.csv:3: close 0.5 is outside low 1 … high 2"],
    ["bad timestamp", "2024-02-30,1,2,1,1,1,0", "X.csv:3: bad timestamp '2024-02-30': no such date or time"],
    ["duplicate timestamp", "2024-01-01T18:30:00Z,1,2,1,1,1,0", "X.csv:3: duplicate timestamp '2024-01-01T18:30:00Z' (first at line 2)"],
    ["wrong field count", "2024-01-03,1,2,1,1", "X.csv:3: expected 7 fields as in the header, got 5"],
  ];
  for (const [name, row, message] of bad) {
    test(`rejects ${name} with file:line: reason, writing nothing`, () => {
      expect(errorsOf(`${HEADER}\n2024-01-02 00:00:00+05:30,1,2,1,1,1,0\n${row}\n`)).toEqual([message]);
      expect(countBars(t, "X")).toBe(0);
    });
  }

  test("line numbers count blank lines and the header", () => {
    expect(errorsOf(`${HEADER}\n\n2024-01-02,1,2,1,1,1,0\n\n2024-01-03,x,2,1,1,1,0\n`)).toEqual(["X.csv:5: bad number in 'open': 'x'"]);
  });

  test("every bad row is reported, not just the first", () => {
    expect(errorsOf(`${HEADER}\n2024-01-02,1,0.5,1,1,1,0\n2024-01-03,1,2,1,1,1,0\n2024-01-04,1,2,1,1,x,0\n`)).toEqual([
      "X.csv:2: high 0.5 is below low 1",
      "X.csv:4: bad number in 'volume': 'x'",
    ]);
  });

  test("a missing column is reported against the header line", () => {
    expect(errorsOf("date,open,high,low,volume\n2024-01-02,1,1,1,1\n")).toEqual([
      "X.csv:1: missing column 'close' (header must include timestamp,close, optionally open,high,low and volume; " +
        "Yahoo-style Date,Open,High,Low,Close,Adj Close,Volume is recognised, other names take --map close=Column)",
    ]);
    expect(errorsOf("timestamp,open,high,close\n2024-01-02,1,1,1\n")).toEqual([
      "X.csv:1: missing column 'low': open, high and low come together or not at all " +
        "(columns: timestamp,open,high,close; other names take --map low=Column)",
    ]);
  });

  test("close-only files: open, high and low store the close, volume 0", () => {
    ok("Date,Close\n2024-01-02,10.5\n2024-01-03,11\n", "C.csv");
    expect(storedBars(t, "C")).toEqual([
      { ts: Date.UTC(2024, 0, 2), offsetMin: 0, open: 10.5, high: 10.5, low: 10.5, close: 10.5, volume: 0 },
      { ts: Date.UTC(2024, 0, 3), offsetMin: 0, open: 11, high: 11, low: 11, close: 11, volume: 0 },
    ]);
    ok("timestamp,close,volume\n2024-01-02,10.5,700\n", "V.csv");
    expect(storedBars(t, "V")[0]).toMatchObject({ open: 10.5, high: 10.5, low: 10.5, close: 10.5, volume: 700 });
    ok("timestamp,open,high,low,close\n2024-01-02,10,12,9,11\n", "R.csv");
    expect(storedBars(t, "R")[0]).toMatchObject({ open: 10, high: 12, low: 9, close: 11, volume: 0 });
    ok("Date,Close,Adj Close\n2024-01-02,10,5\n", "J.csv", { price: "adj_close" });
    expect(storedBars(t, "J")[0]).toMatchObject({ open: 5, high: 5, low: 5, close: 5, volume: 0 });
  });

  test("close-only files are checked as any: the close, and the columns present", () => {
    expect(errorsOf("timestamp,close\n2024-01-02,1\n2024-01-03,0\n2024-01-04,x\n")).toEqual([
      "X.csv:3: 'close' must be a positive price, got 0",
      "X.csv:4: bad number in 'close': 'x'",
    ]);
    expect(errorsOf("timestamp,close,volume\n2024-01-02,1,-1\n")).toEqual(["X.csv:2: negative volume -1"]);
    expect(errorsOf("timestamp,open,high,low,close\n2024-01-02,1,2,1,3\n")).toEqual(["X.csv:2: close 3 is outside low 1 … high 2"]);
  });

  test("a bad symbol in a long file, and a file name that is no symbol", () => {
    expect(errorsOf("symbol,timestamp,open,high,low,close,volume\nBAD SYM,2024-01-02,1,1,1,1,1\n")).toEqual([
      "X.csv:2: bad symbol 'BAD SYM': expected 1-32 characters of A-Z a-z 0-9 & . _ -",
    ]);
    expect(errorsOf(`${HEADER}\n2024-01-02,1,1,1,1,1,0\n`, "/tmp/my prices.csv")[0]).toStartWith(
      "/tmp/my prices.csv: file name 'my prices' is not a valid symbol",
    );
  });

  test("empty files and header-only files are rejected", () => {
    expect(errorsOf("")).toEqual(["X.csv:1: empty file: expected a header row with at least timestamp,close"]);
    expect(errorsOf(`${HEADER}\n`)).toEqual(["X.csv: no data rows after the header"]);
  });

  test("symbolFromFileName strips the directory and extension only", () => {
    expect(symbolFromFileName("/data/BAJAJ-AUTO.csv")).toBe("BAJAJ-AUTO");
    expect(symbolFromFileName("M&M.CSV")).toBe("M&M");
    expect(symbolFromFileName("BRK.B.csv")).toBe("BRK.B");
    expect(symbolFromFileName("/data/TCS.csv.gz")).toBe("TCS");
    expect(symbolFromFileName("INFY.parquet")).toBe("INFY");
  });
});
