/**
 * --series-cache-mb bounds the process's series caches as a whole (issue: 140 distinct 500-symbol
 * orders each kept a whole history per connection and thread, outside every bound): split between
 * the compute threads that load from a SQLite file, or held by the event loop for PostgreSQL and
 * in-memory databases, and reported in /metrics' graphstats_series_cache_bytes. Counted in bytes.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { openDatabase } from "../../db/open.ts";
import { chartParams } from "../../bench/engine-params.ts";
import { writeBigUniverse } from "../../test/support/big-universe.ts";
import { tempDbPath } from "../../test/support/http/harness.ts";
import { mulberry32 } from "../../test/support/engine/random-returns.ts";
import { createLogger } from "../logger.ts";
import { openMarketStore } from "../market/open-store.ts";
import { getUniverse } from "../market/universes.ts";
import { ChartService } from "./chart-service.ts";
import { startComputePool } from "./compute-threads.ts";

const path = tempDbPath();
writeBigUniverse(path, "big", 500, 300);
const db = openDatabase(path);
const symbols = getUniverse(db, "big")!.symbols;
const pools: { stop(): void }[] = [];
afterAll(() => {
  for (const p of pools) p.stop();
  db.sqlite.close();
});

const BOUND = 2 * 2 ** 20;
const rand = mulberry32(5);

/** `count` requests, each over all symbols in another order, two at a time (so both threads load). */
async function distinctOrders(chart: ChartService, count: number): Promise<void> {
  const one = async () => {
    const params = chartParams("lookback=120&metrics=pagerank&include_graph=false");
    params.symbols = [...symbols].sort(() => rand() - 0.5);
    await chart.compute(await chart.prepare(params));
  };
  for (let i = 0; i < count; i += 2) await Promise.all([one(), one()]);
}

describe("the series caches stay inside --series-cache-mb", () => {
  test("split between two compute threads loading from the file", async () => {
    const pool = startComputePool(2, createLogger("silent"));
    pools.push(pool);
    const store = openMarketStore({ kind: "sqlite", sqlite: db.sqlite, path });
    const chart = new ChartService(store, pool, { cacheBytes: 0, seriesCacheBytes: BOUND });
    await distinctOrders(chart, 12);
    // 500 symbols × 121 buckets are about 1.1 MB of buckets alone, each thread's share 1 MB.
    expect(pool.seriesCacheBytes()).toBeGreaterThan(0);
    expect(chart.seriesCacheBytes()).toBeLessThanOrEqual(BOUND);
    expect(store.seriesCacheBytes()).toBe(0);
  });

  test("held by the event loop when it loads (an in-memory path, as PostgreSQL)", async () => {
    const store = openMarketStore({ kind: "sqlite", sqlite: db.sqlite, path: ":memory:" });
    const chart = new ChartService(store, startComputePool(0, createLogger("silent")), { cacheBytes: 0, seriesCacheBytes: BOUND });
    await distinctOrders(chart, 12);
    expect(store.seriesCacheBytes()).toBeGreaterThan(BOUND / 4);
    expect(store.seriesCacheBytes()).toBeLessThanOrEqual(BOUND);
  });
});
