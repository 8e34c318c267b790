/**
 * The market port's contract, the same cases on SQLite and a real PostgreSQL
 * (test/support/both-databases.ts): its statements (universes, stored pairs, bar times, bars by
 * time range, the data version, writes under the market lock), and the series loader over it —
 * which reads only the bars under a request's windows, whatever history is stored, and reads a
 * symbol once for any order or subset of the symbols (counted in rows, not timed).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { pgMarketPort } from "../../db/pg/market-statements.ts";
import { sqliteMarketPort } from "../../db/sqlite/market-statements.ts";
import { closeBackends, emptiedBackends, KINDS } from "../../test/support/both-databases.ts";
import { chartParams } from "../../bench/engine-params.ts";
import { precheck } from "../compute/precheck.ts";
import type { Bar } from "./bar.ts";
import { readCoverage } from "./bar-coverage.ts";
import type { MarketPort } from "./market-port.ts";
import { run } from "./rule.ts";
import type { SampleSeries } from "./sample-generator.ts";
import { SeriesCache } from "./series-cache.ts";
import { SeriesLoader } from "./series-loader.ts";
import { extendUniverseRule, universeRule } from "./universes.ts";

afterAll(closeBackends);
const backend = emptiedBackends(["bars", "universe_members", "universes", "settings"]);

async function portOf(kind: (typeof KINDS)[number]): Promise<MarketPort> {
  const b = await backend(kind);
  return b.kind === "sqlite" ? sqliteMarketPort(b.sqlite.sqlite, b.sqlite.path) : pgMarketPort(b.pg.sql);
}

const DAY = 86_400_000;
const IST = 330;
/** Weekday local midnights (+05:30) from 2020-01-01 on. */
function weekdays(n: number): number[] {
  const out: number[] = [];
  for (let t = Date.UTC(2020, 0, 1) - IST * 60_000; out.length < n; t += DAY) {
    const dow = new Date(t + IST * 60_000).getUTCDay();
    if (dow !== 0 && dow !== 6) out.push(t);
  }
  return out;
}
const bar = (ts: number, close: number): Bar => ({ ts, offsetMin: IST, open: close, high: close, low: close, close, volume: 1 });
/** `days` daily bars and, on the last `minuteDays` of them, one-minute bars 09:15–15:29 local. */
function series(symbol: string, days: number, minuteDays: number, seed: number): SampleSeries {
  const dates = weekdays(days);
  const daily = dates.map((t, k) => bar(t, 100 + ((k * seed) % 17) + Math.sin(k + seed)));
  const minute: Bar[] = [];
  for (const d of dates.slice(days - minuteDays))
    for (let m = 0; m < 375; m++) minute.push(bar(d + (9 * 60 + 15 + m) * 60_000, 50 + ((m * seed) % 13) + Math.cos(m + seed)));
  return { symbol, sector: "x", daily, minute };
}

async function write(port: MarketPort, universe: string, list: SampleSeries[]): Promise<void> {
  await port.locked((tx) =>
    run(
      (function* () {
        yield tx.replaceBars(list);
        yield* extendUniverseRule(
          tx,
          universe,
          list.map((s) => s.symbol),
          "imported",
          0,
        );
        yield tx.bumpDataVersion();
      })(),
    ),
  );
}

/** What a request for `q` over `symbols` reads, as the chart service plans it. */
async function planOf(port: MarketPort, symbols: string[], q: string) {
  const params = chartParams(q);
  const meta = await readCoverage(port, await port.dataVersion());
  await meta.ready(symbols, params.interval);
  const checked = precheck(meta, symbols, params, 1e12);
  return { params, plan: checked.load, cost: checked.cost };
}

for (const kind of KINDS) {
  describe(`the market port on ${kind}`, () => {
    test("an empty store: version 0, no universes, no stored pairs", async () => {
      const port = await portOf(kind);
      expect(await port.dataVersion()).toBe(0);
      expect(await port.universeNames()).toEqual([]);
      expect(await port.storedPairs()).toEqual([]);
      expect(await port.universe("nope")).toBeNull();
    });

    test("statements: universes in order, stored pairs, bar times and inclusive ts ranges", async () => {
      const port = await portOf(kind);
      await write(port, "u", [series("BBB", 10, 2, 3), series("AAA", 10, 0, 5)]);
      expect(await port.dataVersion()).toBe(1);
      expect(await port.universeNames()).toEqual(["u"]);
      expect(await run(universeRule(port, "u"))).toEqual({ name: "u", symbols: ["BBB", "AAA"], source: "imported" });
      expect((await port.storedPairs()).map((p) => p.join(" ")).sort()).toEqual(["AAA 1d", "BBB 1d", "BBB 1m"]);
      const dates = weekdays(10);
      const times = await port.barTimes(["AAA", "ZZZ"], "1d");
      expect(times.get("AAA")).toEqual(dates.map((t) => [t, IST]));
      expect(times.get("ZZZ")).toEqual([]);
      const range = await port.barRange(["AAA", "BBB", "ZZZ"], "1d", dates[3]!, dates[5]!);
      expect(range.get("AAA")!.map((r) => r[1])).toEqual(dates.slice(3, 6));
      expect(range.get("AAA")![0]!.slice(1)).toEqual([dates[3]!, IST, series("AAA", 10, 0, 5).daily[3]!.close]);
      expect(range.get("BBB")!.length).toBe(3);
      expect(range.get("ZZZ")).toEqual([]);
      expect((await port.barRange(["BBB"], "1m", -Infinity, Infinity)).get("BBB")!.length).toBe(750);
    });

    test("a request reads only the bars under its windows, the same on a long history as on a short one", async () => {
      const port = await portOf(kind);
      const n = 20;
      await write(
        port,
        "long",
        Array.from({ length: n }, (_, i) => series(`L${i}`, 1300, 0, i + 1)),
      );
      await write(
        port,
        "short",
        Array.from({ length: n }, (_, i) => series(`S${i}`, 40, 0, i + 1)),
      );
      const costs: number[] = [];
      for (const prefix of ["L", "S"]) {
        const symbols = Array.from({ length: n }, (_, i) => `${prefix}${i}`);
        const { params, plan, cost } = await planOf(port, symbols, "lookback=2&metrics=pagerank&include_graph=false");
        costs.push(cost);
        const loader = new SeriesLoader(port, new SeriesCache(64 * 2 ** 20));
        const input = await run(loader.planRule(symbols, params.interval, plan));
        expect(input.labels.length).toBe(3);
        expect(loader.stats.rows).toBe(n * 3);
        // Another order, then a subset: every symbol's buckets come from the cache.
        await run(loader.planRule([...symbols].reverse(), params.interval, plan));
        await run(loader.planRule(symbols.slice(0, 7), params.interval, plan));
        expect(loader.stats.rows).toBe(n * 3);
        expect(loader.stats.bucketHits).toBe(n + 7);
      }
      // The estimate follows the request, not the stored history.
      expect(costs[0]).toBe(costs[1]!);
    });

    test("resampled: 1h over a long 1m history reads the minutes under the last three hours only", async () => {
      const port = await portOf(kind);
      const symbols = ["M0", "M1", "M2"];
      await write(
        port,
        "minutes",
        symbols.map((s, i) => series(s, 60, 40, i + 2)),
      );
      const { params, plan } = await planOf(port, symbols, "interval=1h&lookback=2&metrics=pagerank&include_graph=false");
      expect(plan.source).toBe("1m");
      const loader = new SeriesLoader(port, new SeriesCache(64 * 2 ** 20));
      const input = await run(loader.planRule(symbols, params.interval, plan));
      // The session's last three hourly buckets: 13:00 (60 minutes), 14:00 (60), 15:00 (15:00-15:29, 30).
      expect(input.labels).toEqual(["2020-03-24T13:00:00+05:30", "2020-03-24T14:00:00+05:30", "2020-03-24T15:00:00+05:30"]);
      expect(loader.stats.rows).toBe(3 * 150);
      await run(loader.planRule(["M2", "M0"], params.interval, plan));
      expect(loader.stats.rows).toBe(3 * 150);
    });

    test("a new data version empties the loader's cache: the next load reads again", async () => {
      const port = await portOf(kind);
      const symbols = ["A", "B"];
      await write(
        port,
        "v",
        symbols.map((s, i) => series(s, 50, 0, i + 3)),
      );
      const first = await planOf(port, symbols, "lookback=5");
      const loader = new SeriesLoader(port, new SeriesCache(64 * 2 ** 20));
      await run(loader.planRule(symbols, first.params.interval, first.plan));
      await write(port, "v", [series("A", 51, 0, 9), series("B", 51, 0, 4)]);
      const second = await planOf(port, symbols, "lookback=5");
      expect(second.plan.version).toBe(first.plan.version + 1);
      const input = await run(loader.planRule(symbols, second.params.interval, second.plan));
      expect(loader.stats.rows).toBe(2 * 6 + 2 * 6);
      expect(input.closes[0]!.at(-1)).toBe(series("A", 51, 0, 9).daily[50]!.close);
    });
  });
}
