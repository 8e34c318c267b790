/**
 * A request's series are read over its planned buckets only (the precheck's LoadPlan): the answer
 * must be exactly the one computed on every stored bar. Random requests over the sample (every
 * interval, resampled ones too; lookback, periods, step, asof, start..end; symbol subsets in any
 * order), through the chart service loading on the event loop and on a compute thread, against
 * the engine on the whole history.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { openDatabase } from "../../db/open.ts";
import { chartParams } from "../../bench/engine-params.ts";
import { sampleDb } from "../../test/support/http/harness.ts";
import { mulberry32 } from "../../test/support/engine/random-returns.ts";
import { ChartError } from "../engine/types.ts";
import { createLogger } from "../logger.ts";
import { openMarketStore } from "../market/open-store.ts";
import { loadSeries } from "../market/series-loader.ts";
import { getUniverse } from "../market/universes.ts";
import { ChartService } from "./chart-service.ts";
import { inlineCompute } from "./compute-pool.ts";
import { startComputePool } from "./compute-threads.ts";

const path = sampleDb();
const db = openDatabase(path);
const all = getUniverse(db, "sample")!.symbols;
const pool = startComputePool(1, createLogger("silent"));
afterAll(() => {
  pool.stop();
  db.sqlite.close();
});

const rand = mulberry32(41);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

/** A random request: its query, and the symbols asked (a shuffled subset, or the universe). */
function randomRequest(): { q: URLSearchParams; symbols: string[] } {
  const interval = pick(["1d", "1d", "1w", "1h", "5m", "15m", "30m", "1m"]);
  const q = new URLSearchParams({ interval, lookback: String(pick([2, 3, 10, 40])), metrics: "pagerank,degree_strength" });
  const dates = interval === "1d" || interval === "1w" ? ["2023-06-14", "2024-03-01", "2025-09-29"] : ["2025-09-22", "2025-09-25"];
  if (rand() < 0.4) {
    q.set("start", pick(dates.slice(0, -1)));
    q.set("end", dates.at(-1)!);
    q.set("step", String(pick([1, 3, 50])));
  } else {
    q.set("periods", String(pick([1, 1, 2, 5])));
    q.set("step", String(pick([1, 2, 7])));
    if (rand() < 0.5) q.set("asof", pick(dates));
  }
  q.set("include_graph", pick(["true", "false"]));
  const symbols = rand() < 0.5 ? all : [...all].sort(() => rand() - 0.5).slice(0, 3 + Math.floor(rand() * 20));
  return { q, symbols };
}

const outcome = (run: () => string) => {
  try {
    return run();
  } catch (err) {
    if (err instanceof ChartError) return `${err.kind}: ${err.message}`;
    throw err;
  }
};

describe("planned loads", () => {
  for (const loads of ["the event loop", "a compute thread"] as const) {
    test(`answer exactly as the whole history does, loaded on ${loads}`, async () => {
      const store = openMarketStore({ kind: "sqlite", sqlite: db.sqlite, path: loads === "the event loop" ? ":memory:" : path });
      const chart = new ChartService(store, loads === "the event loop" ? startComputePool(0, createLogger("silent")) : pool, {
        cacheBytes: 0,
      });
      let compared = 0;
      for (let i = 0; i < 60; i++) {
        const { q, symbols } = randomRequest();
        const params = chartParams(q.toString());
        params.symbols = symbols;
        const whole = outcome(() => inlineCompute(loadSeries(db, symbols, params.interval).input, params).body);
        let planned: string;
        try {
          planned = (await chart.compute(await chart.prepare(params))).body;
        } catch (err) {
          if (!(err instanceof ChartError)) throw err;
          planned = `${err.kind}: ${err.message}`;
        }
        // The precheck refuses from metadata what the engine would refuse after loading: same words.
        expect(planned).toBe(whole);
        if (!planned.includes(":") || planned.startsWith("{")) compared++;
      }
      expect(compared).toBeGreaterThan(30);
    });
  }
});
