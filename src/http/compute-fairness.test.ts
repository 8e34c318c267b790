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
import { startComputePool } from "../compute/compute-threads.ts";

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

const HEAVY = "periods=250&lookback=300&corr_method=spearman&graph_method=complete&include_graph=false";

/*
 * The heavy run computes for seconds (4-12 s here, by load). Once the small one is answered
 * while it still runs, what it has left is not the subject: it is cancelled.
 */
test("a small request sent during another user's heavy one is answered within a second, long before the heavy one", async () => {
  expect(pool.size).toBe(1);
  const leaving = new AbortController();
  let heavyDone = false;
  const heavy = pool
    .compute({ input: series(180, 700) }, params(HEAVY), "heavy-user", leaving.signal)
    .finally(() => (heavyDone = true))
    .catch((e) => e);
  await Bun.sleep(300); // the heavy job holds the thread
  const s0 = performance.now();
  await pool.compute({ input: series(5, 100) }, params("lookback=20"), "small-user");
  const smallMs = performance.now() - s0;
  const heavyRunning = !heavyDone;
  leaving.abort();
  await heavy;
  console.log(`small during the heavy one ${Math.round(smallMs)} ms`);
  expect(heavyRunning).toBe(true); // the premise: the small one came and went while the heavy one ran
  expect(smallMs).toBeLessThan(1000);
}, 120_000);

test("a small request sent while another user's heavy one holds both threads (split) is still answered within a second", async () => {
  expect(split.size).toBe(2);
  // Both threads loaded first, as a server's are long before its requests (the test used to follow a
  // heavy run of seconds; on threads still loading the small one waited 0.3-1 s here).
  await Promise.all(["warm-a", "warm-b"].map((user) => split.compute({ input: series(5, 100) }, params("lookback=20"), user)));
  const leaving = new AbortController();
  let heavyDone = false;
  const heavy = split
    .compute(
      { input: series(180, 700) },
      params(HEAVY),
      "heavy-user",
      leaving.signal,
      10_000, // estimated ms of one core: split across the idle threads
    )
    .finally(() => (heavyDone = true))
    .catch((e) => e);
  expect(split.split()).toBe(1);
  await Bun.sleep(300); // its two parts hold both threads
  const s0 = performance.now();
  await split.compute({ input: series(5, 100) }, params("lookback=20"), "small-user");
  const smallMs = performance.now() - s0;
  const heavyRunning = !heavyDone;
  leaving.abort();
  await heavy;
  console.log(`small during the split heavy one ${Math.round(smallMs)} ms`);
  expect(heavyRunning).toBe(true); // the premise: the small one came and went while the heavy one ran
  expect(smallMs).toBeLessThan(1000);
}, 120_000);
