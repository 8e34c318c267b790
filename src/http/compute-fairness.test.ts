/**
 * Fair scheduling in the compute pool (docs/api.md § Heavy requests, issue 12 item 5): one user's
 * heavy rolling computation is worked in slices, so another user's small request, sent while it
 * runs, is answered within about a second instead of waiting for the whole heavy run — also when
 * the heavy one was split across every idle thread (README.md § Operations, Splitting heavy requests).
 */
import { afterAll, expect, test } from "bun:test";
import { parseChartParams } from "./params/params.ts";
import type { ChartParams, SeriesInput } from "../engine/types.ts";
import { createLogger } from "../logger.ts";
import { startComputePool } from "../compute/compute-pool.ts";

const pool = startComputePool(1, createLogger("silent"));
const split = startComputePool(2, createLogger("silent"));
afterAll(() => {
  pool.stop();
  split.stop();
});

/** n random-walk series with a common factor, `bars` daily bars. */
function series(n: number, bars: number): SeriesInput {
  let seed = 7;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const labels = Array.from({ length: bars }, (_, k) => `${new Date(Date.UTC(2020, 0, 1 + k)).toISOString().slice(0, 10)}T00:00:00+00:00`);
  const closes = Array.from({ length: n }, () => {
    let p = 100;
    return Float64Array.from(labels, () => (p *= Math.exp((rnd() - 0.5) * 0.04)));
  });
  return { symbols: Array.from({ length: n }, (_, i) => `S${i}`), labels, closes };
}

function params(query: string): ChartParams {
  const p = parseChartParams(new URLSearchParams(query), { defaultUniverse: "x" });
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return p.params;
}

test("a small request sent during another user's heavy one is answered within a second, long before the heavy one", async () => {
  expect(pool.size).toBe(1);
  const heavyInput = series(180, 700);
  const t0 = performance.now();
  let heavyDone = 0;
  const heavy = pool
    .compute(
      { input: heavyInput },
      params("periods=250&lookback=300&corr_method=spearman&graph_method=complete&include_graph=false"),
      "heavy-user",
    )
    .then(() => (heavyDone = performance.now() - t0));
  await Bun.sleep(300); // the heavy job holds the thread
  const s0 = performance.now();
  await pool.compute({ input: series(5, 100) }, params("lookback=20"), "small-user");
  const smallMs = performance.now() - s0;
  await heavy;
  console.log(`heavy ${Math.round(heavyDone)} ms; small during it ${Math.round(smallMs)} ms`);
  expect(heavyDone).toBeGreaterThan(2500); // the premise: the heavy run is long
  expect(smallMs).toBeLessThan(1000);
}, 120_000);

test("a small request sent while another user's heavy one holds both threads (split) is still answered within a second", async () => {
  expect(split.size).toBe(2);
  const heavyInput = series(180, 700);
  const t0 = performance.now();
  let heavyDone = 0;
  const heavy = split
    .compute(
      { input: heavyInput },
      params("periods=250&lookback=300&corr_method=spearman&graph_method=complete&include_graph=false"),
      "heavy-user",
      undefined,
      10_000, // estimated ms of one core: split across the idle threads
    )
    .then(() => (heavyDone = performance.now() - t0));
  expect(split.split()).toBe(1);
  await Bun.sleep(300); // its two parts hold both threads
  const s0 = performance.now();
  await split.compute({ input: series(5, 100) }, params("lookback=20"), "small-user");
  const smallMs = performance.now() - s0;
  const heavyRunning = heavyDone === 0;
  await heavy;
  console.log(`split heavy ${Math.round(heavyDone)} ms; small during it ${Math.round(smallMs)} ms`);
  expect(heavyRunning).toBe(true); // the premise: the small one came and went while the heavy one ran
  expect(smallMs).toBeLessThan(1000);
}, 120_000);
