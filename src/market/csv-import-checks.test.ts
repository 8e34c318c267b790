/**
 * Issue #12 item 15: the importer refuses bar spacing that contradicts the interval, reads
 * Yahoo-style files and mapped columns, checks OHLC sanity, streams large files without writing
 * any of a bad one, and bumps the data version only when something changed.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { importCsvFiles, importCsvSources } from "./import-rules.ts";
import { getDataVersion } from "./data-version.ts";
import { countBars, tempDb } from "../../test/support/market-db.ts";

const HEADER = "timestamp,open,high,low,close,volume";
let t: ReturnType<typeof tempDb>;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.cleanup());

/** `n` consecutive 1-minute bars from 09:15 IST. */
const minuteRows = (n: number) =>
  Array.from({ length: n }, (_, i) => {
    const m = 15 + i;
    return `2025-03-03T${String(9 + Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}:00+05:30,10,11,9,10.5,100`;
  }).join("\n");
/** Weekday daily bars from 2025-03-03 (a Monday), plain dates. */
const dailyRows = (n: number) => {
  const out: string[] = [];
  for (let d = 0; out.length < n; d++) {
    const date = new Date(Date.UTC(2025, 2, 3 + d));
    if (date.getUTCDay() % 6 !== 0) out.push(`${date.toISOString().slice(0, 10)},10,11,9,10.5,100`);
  }
  return out.join("\n");
};

describe("bar spacing against --interval", () => {
  test("1-minute bars imported as daily (the default) are refused, naming --interval 1m, and nothing is written", () => {
    const before = getDataVersion(t);
    const s = importCsvSources(t, [{ file: "MIN.csv", text: `${HEADER}\n${minuteRows(30)}\n` }], { universe: "u" });
    expect(s.filesRejected).toBe(1);
    expect(s.errors).toHaveLength(1);
    expect(s.errors[0]).toStartWith("MIN.csv:3: bar spacing contradicts --interval 1d: bars only 1m apart");
    expect(s.errors[0]).toContain("--interval 1m");
    expect(countBars(t, "MIN", "1d")).toBe(0);
    expect(getDataVersion(t)).toBe(before);
  });

  test("the same file with --interval 1m imports", () => {
    const s = importCsvSources(t, [{ file: "MIN.csv", text: `${HEADER}\n${minuteRows(30)}\n` }], { universe: "u", interval: "1m" });
    expect(s.errors).toEqual([]);
    expect(countBars(t, "MIN", "1m")).toBe(30);
  });

  test("daily bars imported as 1-minute bars are refused, naming --interval 1d", () => {
    const s = importCsvSources(t, [{ file: "DAY.csv", text: `${HEADER}\n${dailyRows(20)}\n` }], { universe: "u", interval: "1m" });
    expect(s.errors[0]).toContain("bars are mostly 1d apart");
    expect(s.errors[0]).toContain("--interval 1d");
    expect(countBars(t, "DAY", "1m")).toBe(0);
  });

  test("weekly bars imported as daily are refused, naming --interval 1w", () => {
    const text = `${HEADER}\n2025-03-03,1,1,1,1,1\n2025-03-10,1,1,1,1,1\n2025-03-17,1,1,1,1,1\n`;
    expect(importCsvSources(t, [{ file: "W.csv", text }], { universe: "u" }).errors[0]).toContain("--interval 1w");
  });

  test("daily bars across a daylight-saving change (-05:00 → -04:00) are daily, skipped weekends too", () => {
    const text =
      `${HEADER}\n2025-03-06T00:00:00-05:00,1,1,1,1,1\n2025-03-07T00:00:00-05:00,1,1,1,1,1\n` +
      "2025-03-10T00:00:00-04:00,1,1,1,1,1\n2025-03-11T00:00:00-04:00,1,1,1,1,1\n";
    expect(importCsvSources(t, [{ file: "US.csv", text }], { universe: "u" }).errors).toEqual([]);
  });

  test("in a long file each symbol is checked and named", () => {
    const rows = minuteRows(3)
      .split("\n")
      .map((r) => `MINI,${r}`)
      .join("\n");
    const s = importCsvSources(t, [{ file: "long.csv", text: `symbol,${HEADER}\nDAILY,2025-03-03,1,1,1,1,1\n${rows}\n` }], {
      universe: "u",
    });
    expect(s.errors[0]).toContain("bars for MINI only 1m apart");
  });
});

describe("layouts", () => {
  const YAHOO = "Date,Open,High,Low,Close,Adj Close,Volume\n2025-03-03,100,110,90,105,52.5,1000\n2025-03-04,105,112,100,110,55,2000\n";

  test("a Yahoo-style file imports as it is, storing the close by default", () => {
    const s = importCsvSources(t, [{ file: "YH.csv", text: YAHOO }], { universe: "u" });
    expect(s.errors).toEqual([]);
    const row = t.sqlite.query("SELECT open, high, low, close, volume FROM bars WHERE symbol = 'YH' ORDER BY ts LIMIT 1").get();
    expect(row).toEqual({ open: 100, high: 110, low: 90, close: 105, volume: 1000 });
  });

  test("price adj_close stores the adjusted close and scales open, high and low with it", () => {
    importCsvSources(t, [{ file: "YH.csv", text: YAHOO }], { universe: "u", price: "adj_close" });
    const row = t.sqlite.query("SELECT open, high, low, close, volume FROM bars WHERE symbol = 'YH' ORDER BY ts LIMIT 1").get();
    expect(row).toEqual({ open: 50, high: 55, low: 45, close: 52.5, volume: 1000 });
  });

  test("price adj_close without such a column rejects the file naming --map", () => {
    const s = importCsvSources(t, [{ file: "A.csv", text: `${HEADER}\n2025-03-03,1,1,1,1,1\n` }], { universe: "u", price: "adj_close" });
    expect(s.errors[0]).toStartWith("A.csv:1: --price adj_close needs an adjusted close column");
  });

  test("a map names other columns", () => {
    const text = "When,O,H,L,Last,Qty,Note\n2025-03-03,1,2,0.5,1.5,10,x\n";
    const s = importCsvSources(t, [{ file: "M.csv", text }], {
      universe: "u",
      map: { timestamp: "When", open: "O", high: "H", low: "L", close: "last", volume: "Qty" },
    });
    expect(s.errors).toEqual([]);
    expect(t.sqlite.query("SELECT open, high, low, close, volume FROM bars WHERE symbol = 'M'").get()).toEqual({
      open: 1,
      high: 2,
      low: 0.5,
      close: 1.5,
      volume: 10,
    });
  });

  test("a map naming a column the header lacks rejects the file, listing the columns", () => {
    const s = importCsvSources(t, [{ file: "M.csv", text: `${HEADER}\n2025-03-03,1,1,1,1,1\n` }], {
      universe: "u",
      map: { close: "Last" },
    });
    expect(s.errors).toEqual(["M.csv:1: --map close=Last: no column 'Last' in the header (columns: timestamp,open,high,low,close,volume)"]);
  });
});

describe("OHLC sanity", () => {
  const bad: [string, string, string][] = [
    ["close above high", "2025-03-04,10,11,9,12,1", "X.csv:3: close 12 is outside low 9 … high 11"],
    ["open below low", "2025-03-04,8,11,9,10,1", "X.csv:3: open 8 is outside low 9 … high 11"],
    ["zero close", "2025-03-04,10,11,9,0,1", "X.csv:3: 'close' must be a positive price, got 0"],
    ["negative volume", "2025-03-04,10,11,9,10,-1", "X.csv:3: negative volume -1"],
  ];
  for (const [name, row, message] of bad) {
    test(`${name} rejects the file with file:line: reason`, () => {
      const s = importCsvSources(t, [{ file: "X.csv", text: `${HEADER}\n2025-03-03,10,11,9,10,1\n${row}\n` }], { universe: "u" });
      expect(s.errors).toEqual([message]);
      expect(countBars(t, "X")).toBe(0);
    });
  }
});

describe("streaming and the data version", () => {
  test("a bad row after several MiB of good ones: the file is rejected and nothing of it is written", () => {
    const file = join(t.dir, "BIG.csv");
    const good = minuteRows(375).split("\n");
    const days: string[] = [];
    for (let d = 1; d <= 200; d++) {
      const day = `2024-${String(1 + Math.floor((d - 1) / 28)).padStart(2, "0")}-${String(1 + ((d - 1) % 28)).padStart(2, "0")}`;
      days.push(good.map((r) => day + r.slice(10)).join("\n"));
    }
    writeFileSync(file, `${HEADER}\n${days.join("\n")}\n2025-01-01T09:15:00+05:30,10,9,11,10,1\n`);
    const progress: number[] = [];
    const s = importCsvFiles(t, [file], { universe: "u", interval: "1m", onProgress: (p) => progress.push(p.bytes) });
    expect(s.errors).toEqual([`${file}:75002: high 9 is below low 11`]);
    expect(countBars(t, "BIG", "1m")).toBe(0);
    expect(progress.length).toBeGreaterThan(2);
    expect(progress.at(-1)).toBe(Bun.file(file).size);
  });

  test("duplicates in a long file are found after staging, with the first line", () => {
    const text = `symbol,${HEADER}\nA,2025-03-03,1,1,1,1,1\nB,2025-03-03,1,1,1,1,1\nA,2025-03-03,1,1,1,1,2\n`;
    expect(importCsvSources(t, [{ file: "L.csv", text }], { universe: "u" }).errors).toEqual([
      "L.csv:4: duplicate timestamp '2025-03-03' for A (first at line 2)",
    ]);
  });

  test("the data version moves only when bars change", () => {
    const src = (close: number) => [{ file: "V.csv", text: `${HEADER}\n2025-03-03,10,11,9,${close},1\n` }];
    const first = importCsvSources(t, src(10), { universe: "u" }).dataVersion;
    expect(first).toBeGreaterThan(0);
    expect(importCsvSources(t, src(10), { universe: "u" }).dataVersion).toBe(first);
    const changed = importCsvSources(t, src(10.5), { universe: "u" });
    expect([changed.inserted, changed.updated, changed.unchanged]).toEqual([0, 1, 0]);
    expect(changed.dataVersion).toBe(first + 1);
    expect(importCsvSources(t, src(10.5), { universe: "other" }).dataVersion).toBe(first + 2);
  });
});
