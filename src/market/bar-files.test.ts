/**
 * Gzipped CSV and Parquet through the importer as `import` runs it (the MarketStore, bar-files.ts):
 * the same bars written as CSV, as .csv.gz and as Parquet (by a real writer, hyparquet-writer)
 * give identical stored rows on both databases; Parquet's timestamp types (INT64 with each unit,
 * UTC or local, DATE, ISO text), compression codecs and row groups; and the refusals — a truncated
 * or corrupt gzip, a file that is not what its name says, nulls, a column of the wrong type, bad
 * rows — each as `file: reason` or `file:N: reason` with nothing written.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { openPg } from "../../db/pg/open.ts";
import { tempDb } from "../../test/support/market-db.ts";
import { DATE, DOUBLE, STRING, timestamp, writeParquet, type ParquetColumn } from "../../test/support/parquet-files.ts";
import { startPostgres, type TestDatabase } from "../../test/support/postgres.ts";
import type { ImportOptions } from "./csv-import.ts";
import { openMarketStore } from "./open-store.ts";
import { MAX_ROW_GROUP_BYTES, readParquetFile } from "./parquet-records.ts";
import type { MarketStore } from "./store.ts";

const dir = mkdtempSync(join(tmpdir(), "gs-bar-files-"));
let pg: TestDatabase | undefined;
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await pg?.stop();
});
const path = (name: string) => join(dir, name);

type Row = Record<string, unknown>;
interface Opened {
  store: MarketStore;
  rows(): Promise<Row[]>;
  close(): Promise<void>;
}
const BARS = "SELECT symbol, interval, ts, offset_min, open, high, low, close, volume FROM bars ORDER BY symbol, interval, ts";

async function sqliteStore(): Promise<Opened> {
  const t = tempDb();
  return {
    store: openMarketStore({ kind: "sqlite", sqlite: t.sqlite, path: t.path }),
    rows: async () => t.sqlite.query(BARS).all() as Row[],
    close: async () => t.cleanup(),
  };
}

async function pgStore(): Promise<Opened> {
  pg ??= await startPostgres();
  const opened = await openPg(pg.url);
  await opened.sql`TRUNCATE bars, universe_members, universes, settings`;
  return {
    store: openMarketStore({ kind: "postgres", sql: opened.sql }),
    // bigint ts as a number, as SQLite hands it over, so the two stores compare row for row.
    rows: async () => ((await opened.sql.unsafe(BARS)) as Row[]).map((r) => ({ ...r, ts: Number(r.ts) })),
    close: () => opened.close(),
  };
}

async function withStore<T>(open: () => Promise<Opened>, fn: (o: Opened) => Promise<T>): Promise<T> {
  const o = await open();
  try {
    return await fn(o);
  } finally {
    await o.close();
  }
}

/** Imports `files` into a fresh SQLite store: the summary and the stored rows. */
const importInto = (files: string[], opts: Partial<ImportOptions> = {}) =>
  withStore(sqliteStore, async (o) => {
    const summary = await o.store.importCsvFiles(files, { universe: "u", ...opts });
    return { summary, rows: await o.rows(), universe: await o.store.getUniverse("u") };
  });

// Twelve weekdays of two symbols, with prices a CSV writes as shortest round-trip decimals.
const DAYS = [2, 3, 4, 5, 8, 9, 10, 11, 12, 15, 16, 17].map((d) => Date.UTC(2024, 0, d) - 330 * 60_000);
const SYMBOLS = ["TCS", "M&M"];
const bars = SYMBOLS.flatMap((symbol, s) =>
  DAYS.map((ts, i) => {
    const close = 100 * (s + 1) + i * 1.1 + 0.05;
    return { symbol, ts, open: close - 0.3, high: close + 1.7, low: close - 2.25, close, volume: 1000 * (i + 1) };
  }),
);
const iso = (ts: number) => `${new Date(ts + 330 * 60_000).toISOString().slice(0, 19)}+05:30`;
const longCsv = () =>
  `symbol,timestamp,open,high,low,close,volume\n${bars.map((b) => `${b.symbol},${iso(b.ts)},${b.open},${b.high},${b.low},${b.close},${b.volume}`).join("\n")}\n`;
const longParquetColumns = (time: ParquetColumn): ParquetColumn[] => [
  { name: "symbol", type: STRING, data: bars.map((b) => b.symbol) },
  time,
  ...(["open", "high", "low", "close", "volume"] as const).map((f) => ({ name: f, type: DOUBLE, data: bars.map((b) => b[f]) })),
];

describe("the same bars as CSV, .csv.gz and Parquet", () => {
  for (const [name, open] of [
    ["SQLite", sqliteStore],
    ["PostgreSQL", pgStore],
  ] as const) {
    test(`${name}: identical stored rows and universe from each (long layout, several row groups)`, async () => {
      writeFileSync(path("long.csv"), longCsv());
      writeFileSync(path("long.csv.gz"), gzipSync(longCsv()));
      const micros = { name: "timestamp", type: timestamp("MICROS"), data: bars.map((b) => BigInt(b.ts) * 1000n) };
      writeParquet(path("long.parquet"), longParquetColumns(micros), { rowGroupSize: 5 });
      const stored: Row[][] = [];
      for (const file of ["long.csv", "long.csv.gz", "long.parquet"]) {
        stored.push(
          await withStore(open, async (o) => {
            const s = await o.store.importCsvFiles([path(file)], { universe: "u", defaultOffsetMin: 330 });
            expect(s.errors).toEqual([]);
            expect([s.rows, s.inserted, s.symbols]).toEqual([24, 24, SYMBOLS]);
            expect((await o.store.getUniverse("u"))?.symbols).toEqual(SYMBOLS);
            return o.rows();
          }),
        );
      }
      expect(stored[0]).toHaveLength(24);
      expect(stored[0]![0]).toEqual({
        symbol: "M&M",
        interval: "1d",
        ts: DAYS[0],
        offset_min: 330,
        open: 199.75,
        high: 201.75,
        low: 197.8,
        close: 200.05,
        volume: 1000,
      });
      expect(stored[1]).toEqual(stored[0]!);
      expect(stored[2]).toEqual(stored[0]!);
    }, 60_000);
  }

  test("per-symbol files: the name without .csv.gz or .parquet is the symbol", async () => {
    const tcs = bars.filter((b) => b.symbol === "TCS");
    const csv = `timestamp,open,high,low,close,volume\n${tcs.map((b) => `${iso(b.ts)},${b.open},${b.high},${b.low},${b.close},${b.volume}`).join("\n")}\n`;
    writeFileSync(path("TCS.csv"), csv);
    writeFileSync(path("TCS.csv.gz"), gzipSync(csv));
    const cols = (["open", "high", "low", "close", "volume"] as const).map((f) => ({ name: f, type: DOUBLE, data: tcs.map((b) => b[f]) }));
    writeParquet(path("TCS.parquet"), [{ name: "Date", type: STRING, data: tcs.map((b) => iso(b.ts)) }, ...cols]);
    const [a, b, c] = [
      await importInto([path("TCS.csv")]),
      await importInto([path("TCS.csv.gz")]),
      await importInto([path("TCS.parquet")]),
    ];
    expect(a.summary.symbols).toEqual(["TCS"]);
    expect(a.rows).toHaveLength(12);
    expect(b).toEqual({ ...a, summary: { ...a.summary, files: [{ ...a.summary.files[0]!, file: path("TCS.csv.gz") }] } });
    expect(c.rows).toEqual(a.rows);
    expect(c.universe).toEqual(a.universe);
  });
});

describe(".csv.gz", () => {
  const csv = `timestamp,close\n${DAYS.map((ts, i) => `${iso(ts)},${10 + i}`).join("\n")}\n`;

  test("a truncated gzip is refused as a whole, nothing written", async () => {
    const whole = gzipSync(csv.repeat(1)); // one member
    writeFileSync(path("CUT.csv.gz"), whole.subarray(0, whole.length - 6));
    const { summary, rows } = await importInto([path("CUT.csv.gz")]);
    expect(summary.errors).toEqual([
      `${path("CUT.csv.gz")}: truncated gzip file: the compressed data ends early (unexpected end of file); nothing was imported from it`,
    ]);
    expect(rows).toEqual([]);
  });

  test("a corrupt gzip is refused as a whole, nothing written", async () => {
    const whole = Buffer.from(gzipSync(csv));
    for (let i = 12; i < whole.length - 8; i++) whole[i] = whole[i]! ^ 0x5a;
    writeFileSync(path("BAD.csv.gz"), whole);
    const { summary, rows } = await importInto([path("BAD.csv.gz")]);
    expect(summary.errors).toHaveLength(1);
    expect(summary.errors[0]).toStartWith(`${path("BAD.csv.gz")}: corrupt gzip file: `);
    expect(rows).toEqual([]);
  });

  test("a .gz name on plain text is refused; gzip bytes under a .csv name are read as gzip", async () => {
    writeFileSync(path("PLAIN.csv.gz"), csv);
    expect((await importInto([path("PLAIN.csv.gz")])).summary.errors).toEqual([
      `${path("PLAIN.csv.gz")}: not a gzip file (it does not start with the gzip magic bytes 1f 8b)`,
    ]);
    writeFileSync(path("HIDDEN.csv"), gzipSync(csv));
    const hidden = await importInto([path("HIDDEN.csv")]);
    expect(hidden.summary.errors).toEqual([]);
    expect(hidden.rows).toHaveLength(12);
  });

  test("concatenated gzip members read as one file, and bad rows are listed by line", async () => {
    const [head, ...rest] = csv.trimEnd().split("\n");
    writeFileSync(
      path("TWO.csv.gz"),
      Buffer.concat([gzipSync(`${head}\n${rest.slice(0, 5).join("\n")}\n`), gzipSync(`${rest.slice(5).join("\n")}\n`)]),
    );
    expect((await importInto([path("TWO.csv.gz")])).rows).toHaveLength(12);
    writeFileSync(path("ROWS.csv.gz"), gzipSync(csv.replace(",13\n", ",x\n")));
    const bad = await importInto([path("ROWS.csv.gz")]);
    expect(bad.summary.errors).toEqual([`${path("ROWS.csv.gz")}:5: bad number in 'close': 'x'`]);
    expect(bad.rows).toEqual([]);
  });
});

describe("Parquet", () => {
  const six = DAYS.slice(0, 6);
  const closes = (n = six.length) => ({ name: "close", type: DOUBLE, data: six.slice(0, n).map((_, i) => 10 + i) });
  const importParquet = async (name: string, columns: ParquetColumn[], opts: Partial<ImportOptions> = {}, write = {}) => {
    writeParquet(path(name), columns, write);
    return importInto([path(name)], opts);
  };

  test("INT64 timestamps in each unit, UTC-adjusted: the instant, stored at --default-offset", async () => {
    for (const [unit, scale] of [
      ["MILLIS", 1n],
      ["MICROS", 1000n],
      ["NANOS", 1_000_000n],
    ] as const) {
      const time = { name: "timestamp", type: timestamp(unit), data: six.map((t) => BigInt(t) * scale) };
      const { summary, rows } = await importParquet(`U${unit}.parquet`, [time, closes()], { defaultOffsetMin: 330 });
      expect(summary.errors).toEqual([]);
      expect(rows.map((r) => [r.ts, r.offset_min, r.close])).toEqual(six.map((t, i) => [t, 330, 10 + i]));
      // Without --default-offset the same instants are stored, labelled in UTC.
      const utc = await importInto([path(`U${unit}.parquet`)]);
      expect(utc.rows.map((r) => [r.ts, r.offset_min])).toEqual(six.map((t) => [t, 0]));
    }
  });

  test("local (not UTC-adjusted) timestamps read as CSV times without an offset; midnight is a date", async () => {
    const localMidnight = six.map((t) => BigInt(t + 330 * 60_000 - ((t + 330 * 60_000) % 86_400_000)));
    const dates = await importParquet("LOCALDAY.parquet", [
      { name: "date", type: timestamp("MILLIS", false), data: localMidnight },
      closes(),
    ]);
    expect(dates.summary.errors).toEqual([]);
    expect(dates.rows.map((r) => [r.ts, r.offset_min])).toEqual(localMidnight.map((t) => [Number(t), 0]));
    const atTen = six.map((t) => BigInt(t + 330 * 60_000 + 10 * 3_600_000) * 1000n);
    const refused = await importParquet("LOCALTEN.parquet", [{ name: "date", type: timestamp("MICROS", false), data: atTen }, closes()]);
    expect(refused.summary.errors[0]).toStartWith(`${path("LOCALTEN.parquet")}:1: a date-time without a UTC offset: add one`);
    expect(refused.rows).toEqual([]);
    const read = await importInto([path("LOCALTEN.parquet")], { defaultOffsetMin: 330 });
    expect(read.rows.map((r) => [r.ts, r.offset_min])).toEqual(six.map((t) => [t + 10 * 3_600_000, 330]));
  });

  test("DATE and ISO text timestamps, as in CSV", async () => {
    const days = six.map((t) => Math.floor((t + 330 * 60_000) / 86_400_000));
    const d = await importParquet("DAYS.parquet", [{ name: "Date", type: DATE, data: days }, closes()], { defaultOffsetMin: 330 });
    expect(d.rows.map((r) => [r.ts, r.offset_min])).toEqual(six.map((t) => [t, 330]));
    const s = await importParquet("TEXT.parquet", [{ name: "timestamp", type: STRING, data: six.map(iso) }, closes()]);
    expect(s.rows).toEqual(d.rows.map((r) => ({ ...r, symbol: "TEXT" })));
  });

  test("gzip, zstd and uncompressed files read as snappy ones do", async () => {
    const columns = () => [{ name: "timestamp", type: STRING, data: six.map(iso) }, closes()];
    const snappy = await importParquet("CODEC.parquet", columns());
    for (const codec of ["GZIP", "ZSTD", "UNCOMPRESSED"] as const) {
      expect(await importParquet("CODEC.parquet", columns(), {}, { codec })).toEqual(snappy);
    }
    expect(snappy.rows).toHaveLength(6);
  });

  test("nulls in a required column are refused by row, nothing written", async () => {
    const close = { name: "close", type: DOUBLE, data: [10, null, 12, 13, null, 15] };
    const { summary, rows } = await importParquet("NULLS.parquet", [{ name: "timestamp", type: STRING, data: six.map(iso) }, close]);
    expect(summary.errors).toEqual([`${path("NULLS.parquet")}:2: 'close' is null (and 1 more row like it)`]);
    expect(rows).toEqual([]);
    const time = { name: "timestamp", type: timestamp("MILLIS"), data: [null, ...six.slice(1).map(BigInt)] };
    expect((await importParquet("NULLTS.parquet", [time, closes()])).summary.errors).toEqual([
      `${path("NULLTS.parquet")}:1: 'timestamp' is null`,
    ]);
  });

  test("a column of the wrong type is refused as a whole, naming it and what it should be", async () => {
    const text = { name: "close", type: STRING, data: six.map((_, i) => String(10 + i)) };
    const time = { name: "timestamp", type: STRING, data: six.map(iso) };
    expect((await importParquet("TYPE.parquet", [time, text])).summary.errors).toEqual([
      `${path("TYPE.parquet")}: column 'close' (close) is BYTE_ARRAY (STRING): expected numbers (DOUBLE, FLOAT, an INT or DECIMAL)`,
    ]);
    const bare = { name: "timestamp", type: { type: "INT64" as const }, data: six.map(BigInt) };
    expect((await importParquet("BARE.parquet", [bare, closes()])).summary.errors).toEqual([
      `${path("BARE.parquet")}: column 'timestamp' (timestamp) is INT64: expected a TIMESTAMP with its unit (MILLIS, MICROS or NANOS), ` +
        "a DATE, or ISO 8601 text such as 2024-01-02T09:15:00+05:30",
    ]);
  });

  test("the CSV checks and messages, with rows counted from 1; missing columns name the schema's", async () => {
    const time = { name: "timestamp", type: STRING, data: [...six.map(iso), iso(six[2]!)] };
    const prices = (f: string, d: number[]) => ({ name: f, type: DOUBLE, data: d });
    const { summary, rows } = await importParquet("ROWS.parquet", [
      time,
      prices("open", [10, 11, 12, 13, 14, 15, 12]),
      prices("high", [11, 1, 13, 14, 15, 16, 13]),
      prices("low", [9, 10, 11, 12, 13, 14, 11]),
      prices("close", [10, 11, 12, 13, 14, 15, 12]),
    ]);
    expect(summary.errors).toEqual([`${path("ROWS.parquet")}:2: high 1 is below low 10`]);
    expect(rows).toEqual([]);
    const dup = await importParquet("DUP.parquet", [time, { name: "close", type: DOUBLE, data: [10, 11, 12, 13, 14, 15, 12] }]);
    expect(dup.summary.errors).toEqual([`${path("DUP.parquet")}:7: duplicate timestamp '${iso(six[2]!)}' (first at row 3)`]);
    const none = await importParquet("NOCLOSE.parquet", [time, prices("price", [1, 1, 1, 1, 1, 1, 1])]);
    expect(none.summary.errors[0]).toStartWith(`${path("NOCLOSE.parquet")}: missing column 'close' (header must include timestamp,close`);
  });

  test("a file that is not Parquet is refused as such", async () => {
    writeFileSync(path("TEXT.pq"), "timestamp,close\n2024-01-02,1\n");
    writeFileSync(path("FAKE.parquet"), Buffer.concat([Buffer.from("PAR1"), Buffer.alloc(64, 7), Buffer.from("PAR1")]));
    writeFileSync(path("EMPTY.parquet"), "");
    const { summary } = await withStore(sqliteStore, async (o) => ({
      summary: await o.store.importCsvFiles([path("TEXT.pq"), path("FAKE.parquet")], { universe: "u" }),
    }));
    expect(summary.errors[0]).toBe(`${path("TEXT.pq")}: not a Parquet file (it does not start with the bytes PAR1)`);
    expect(summary.errors[1]).toStartWith(`${path("FAKE.parquet")}: not a readable Parquet file: `);
    expect((await importInto([path("EMPTY.parquet")])).summary.errors).toEqual([
      `${path("EMPTY.parquet")}: not a Parquet file (it does not start with the bytes PAR1)`,
    ]);
  });

  test("a row group larger than the bound is refused before it is read", async () => {
    const n = 500;
    const text = Array.from({ length: n }, (_, i) => `2024-01-02T00:00:00.${String(i % 1000).padStart(3, "0")}+05:30`);
    writeParquet(path("BIG.parquet"), [
      { name: "timestamp", type: STRING, data: text },
      { name: "close", type: DOUBLE, data: text.map(() => 1) },
    ]);
    const seen: number[] = [];
    const col = { timestamp: 0, close: 1, open: -1, high: -1, low: -1, volume: -1, adj_close: -1, symbol: -1 };
    const reading = readParquetFile(
      path("BIG.parquet"),
      (_, line) => seen.push(line),
      undefined,
      () => ({ col }),
      4096,
    );
    await expect(reading).rejects.toThrow(/^row group 1 holds 1 MiB of the columns read \(at most 0\.00390625 MiB\)/);
    expect(seen).toEqual([0]);
    expect(MAX_ROW_GROUP_BYTES).toBe(128 * 2 ** 20);
  });
});
