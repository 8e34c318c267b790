/** The synthetic sample's rules (sample-policy.ts), the same cases on SQLite and PostgreSQL. */
import type { SeriesInput } from "../engine/types.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openDatabase } from "../../db/sqlite/open.ts";
import { openPg } from "../../db/pg/open.ts";
import { type Backend, closeBackends, KINDS, openBackend } from "../../test/support/both-databases.ts";
import { TestClock } from "../clock.ts";
import { openMarketStore } from "./open-store.ts";
import { SAMPLE_MINUTE_DAYS, sampleTradingDays } from "./sample-generator.ts";
import type { LoadSampleResult } from "./sample-policy.ts";
import { sampleSeriesInput } from "./sample-series.ts";
import type { MarketStore } from "./store.ts";

afterAll(() => closeBackends());

const storeOf = (b: Backend): MarketStore =>
  b.kind === "sqlite"
    ? openMarketStore({ kind: "sqlite", sqlite: b.sqlite.sqlite, path: b.sqlite.path })
    : openMarketStore({ kind: "postgres", sql: b.pg.sql });

/** A second store on the same database over its own connection(s), as another process would have. */
async function secondStore(b: Backend): Promise<{ store: MarketStore; close(): Promise<void> }> {
  if (b.kind === "sqlite") {
    const other = openDatabase(b.sqlite.path);
    return { store: openMarketStore({ kind: "sqlite", sqlite: other.sqlite, path: other.path }), close: async () => other.sqlite.close() };
  }
  const pg = await openPg(b.url, { poolSize: 2 });
  return { store: openMarketStore({ kind: "postgres", sql: pg.sql }), close: () => pg.close() };
}

/** Rows of a statement both databases read alike. */
const rows = async <T>(b: Backend, text: string): Promise<T[]> =>
  b.kind === "sqlite" ? (b.sqlite.sqlite.query(text).all() as T[]) : ((await b.pg.sql.unsafe(text)) as T[]);

const barsPerInterval = (b: Backend) =>
  rows<{ i: string; n: number }>(b, "SELECT interval AS i, CAST(COUNT(*) AS INTEGER) AS n FROM bars GROUP BY interval ORDER BY interval");

describe.each(KINDS)("loadSample on %s", (kind) => {
  let b: Backend;
  let store: MarketStore;
  let first: LoadSampleResult;
  let other: LoadSampleResult;
  beforeAll(async () => {
    b = await openBackend(kind);
    store = storeOf(b);
    // An older generator's sample: a load replaces it, so one load covers the replacement too (a
    // second full load cost ~3 s of CPU on PostgreSQL). A fresh database's load, data version 1, is
    // asserted on the run's sample copies (store.test.ts) and through migrate (postgres-market.test.ts).
    for (const q of [
      "INSERT INTO universes (name, created_at, source) VALUES ('sample', 0, 'synthetic')",
      "INSERT INTO universe_members (universe, symbol, position) VALUES ('sample', 'ALPHABANK', 0)",
      "INSERT INTO bars (symbol, interval, ts, offset_min, open, high, low, close, volume) VALUES ('ALPHABANK', '1d', 0, 330, 1, 1, 1, 1, 1)",
      "INSERT INTO settings (key, value) VALUES ('sample_generator_version', '0'), ('data_version', '1')",
    ])
      await rows(b, q);
    const second = await secondStore(b);
    // Two instances starting together: the re-check under the write lock lets one load it.
    [first, other] = await Promise.all([store.loadSample(new TestClock(0)), second.store.loadSample(new TestClock(0))]);
    if (!first.loaded) [first, other] = [other, first];
    await second.close();
  });

  test("replaces an older generator's sample with the synthetic universe's daily and minute bars, once for two loaders", async () => {
    expect([first.loaded, other.loaded]).toEqual([true, false]);
    expect(other.dataVersion).toBe(first.dataVersion);
    const u = (await store.getUniverse("sample"))!;
    expect(u.source).toBe("synthetic");
    expect(u.symbols.length).toBe(50);
    expect(u.symbols[0]).toBe("ALPHABANK"); // kept in its place, the other 49 appended
    expect(first.symbols).toBe(50);
    expect(await store.knownSymbols()).toEqual([...u.symbols].sort());
    const stored = await store.storedIntervals();
    expect(stored.size).toBe(50);
    for (const ivs of stored.values()) expect(ivs).toEqual(["1m", "1d"]);
    expect(first.minuteBars).toBe(50 * 375 * SAMPLE_MINUTE_DAYS);
    // Replaced, not added to: the old generator's bar is gone.
    expect(await barsPerInterval(b)).toEqual([
      { i: "1d", n: first.dailyBars },
      { i: "1m", n: first.minuteBars },
    ]);
    const alpha = await rows<{ n: number }>(
      b,
      "SELECT CAST(COUNT(*) AS INTEGER) AS n FROM bars WHERE symbol = 'ALPHABANK' AND interval = '1d'",
    );
    expect(alpha[0]!.n).toBe(sampleTradingDays().length);
    expect(first.dataVersion).toBe(2); // one bump over the old sample's
    expect(first.dataVersion).toBe(await store.dataVersion());
  });

  test("is idempotent: a second call writes nothing and keeps the data version", async () => {
    const v = await store.dataVersion();
    const again = await store.loadSample(new TestClock(0));
    expect([again.loaded, again.dataVersion, await store.dataVersion()]).toEqual([false, v, v]);
    expect(await barsPerInterval(b)).toEqual([
      { i: "1d", n: first.dailyBars },
      { i: "1m", n: first.minuteBars },
    ]);
  });

  test("1m resampled to 1d equals the stored daily closes of the minute sessions", async () => {
    const symbols = (await store.getUniverse("sample"))!.symbols;
    const stored = await store.loadSeries(symbols, "1d");
    expect((await store.loadSeries(["CODEWAVE"], "5m")).sourceInterval).toBe("1m"); // guard: 5m really comes from 1m
    const minutes = await rows<{ ts: number; close: number }>(
      b,
      "SELECT CAST(ts AS DOUBLE PRECISION) AS ts, close FROM bars WHERE symbol = 'CODEWAVE' AND interval = '1m' ORDER BY ts",
    );
    const lastOfDay = new Map<string, number>();
    for (const r of minutes) lastOfDay.set(new Date(r.ts + 330 * 60_000).toISOString().slice(0, 10), r.close);
    expect(lastOfDay.size).toBe(SAMPLE_MINUTE_DAYS);
    const i = symbols.indexOf("CODEWAVE");
    for (const [date, close] of lastOfDay) {
      expect(stored.input.closes[i]![stored.input.labels.indexOf(`${date}T00:00:00+05:30`)]).toBe(close);
    }
  });

  test("sampleSeriesInput (no database) equals loadSeries on the loaded sample, at 1d and 1m", async () => {
    const symbols = (await store.getUniverse("sample"))!.symbols;
    // Plain arrays: bun's toEqual does not match NaN inside typed arrays.
    const plain = (s: SeriesInput) => ({ ...s, closes: s.closes.map((c) => Array.from(c)) });
    const daily = plain(sampleSeriesInput());
    expect(daily.closes[0]!.length).toBeGreaterThan(900);
    expect(daily.closes.some((c) => c.some(Number.isNaN))).toBe(true); // NOVAGRID before listing
    expect(daily).toEqual(plain((await store.loadSeries(symbols, "1d")).input));
    expect(plain(sampleSeriesInput("1m"))).toEqual(plain((await store.loadSeries(symbols, "1m")).input));
  });

  test("a universe named sample holding imported data is not overwritten", async () => {
    const fresh = storeOf(await openBackend(kind));
    await fresh.importCsvSources([{ file: "REAL.csv", text: "timestamp,open,high,low,close,volume\n2024-01-01,1,1,1,1,1\n" }], {
      universe: "sample",
    });
    await expect(fresh.loadSample(new TestClock(0))).rejects.toThrow("universe 'sample' already holds imported data");
    expect((await fresh.getUniverse("sample"))!.symbols).toEqual(["REAL"]);
  });
});
