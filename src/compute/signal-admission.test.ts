/**
 * Issue 46's heavy options share the bound on admitted work like any other request
 * (docs/api.md § Heavy requests): the bytes the prepared request carries grow with bootstrap=B and
 * with include_corr under include_graph=all, so beside a computation under way a request that
 * would cross the byte bound is refused, where the same question without them is let in.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { parseChartParams } from "../http/params/params.ts";
import { createLogger } from "../logger.ts";
import { loadSample } from "../market/index.ts";
import { openMarketStore } from "../market/open-store.ts";
import { tempDb } from "../../test/support/market-db.ts";
import { AdmittedWork } from "./admitted-work.ts";
import { ChartService } from "./chart-service.ts";
import type { ComputePool } from "./compute-pool.ts";
import { startComputePool } from "./compute-threads.ts";

const db = tempDb();
let pool: ComputePool;
beforeAll(() => {
  loadSample(db);
  pool = startComputePool(1, createLogger("silent"));
});
afterAll(() => {
  pool.stop();
  db.cleanup();
});

function service(admitted?: AdmittedWork): ChartService {
  return new ChartService(openMarketStore({ kind: "sqlite", sqlite: db.sqlite, path: join(db.dir, "test.sqlite") }), pool, { admitted });
}

function params(q: string) {
  const parsed = parseChartParams(new URLSearchParams(q), { defaultUniverse: "sample" });
  if (!parsed.ok) throw new Error(parsed.errors.join("; "));
  return parsed.params;
}

const HELD = "lookback=40&metrics=degree_strength";
const PLAIN = "periods=10&lookback=40&include_graph=all";

test("bootstrap and the matrix carry their bytes to admission: beside a held computation they cross the byte bound the plain request fits", async () => {
  const probe = service();
  const bytes = async (q: string) => (await probe.prepare(params(q), "json")).bytes;
  const held = await bytes(HELD);
  const plain = await bytes(PLAIN);
  const heavier = ["bootstrap=1000", "include_corr=true", "spectrum=true&denoise=mp"];
  for (const extra of heavier) expect(await bytes(`${PLAIN}&${extra}`)).toBeGreaterThan(plain);
  // The bound holds the held request and the plain one exactly.
  const admitted = new AdmittedWork({ costMs: 1e9, bytes: held + plain }, () => 1);
  const chart = service(admitted);
  const reserve = async (q: string) => chart.reserve(await chart.prepare(params(q), "json"));
  const first = await reserve(HELD);
  if (!("release" in first)) throw new Error("a lone computation is always admitted");
  const fits = await reserve(PLAIN);
  expect("release" in fits).toBe(true);
  if ("release" in fits) fits.release();
  for (const extra of heavier) {
    const refused = await reserve(`${PLAIN}&${extra}`);
    expect(refused).toEqual({ full: { retryAfterSeconds: expect.any(Number), jobs: 1 } });
  }
  first.release();
  // Alone, the heaviest is let in: its cost budget bounds it, as for any other request.
  const alone = await reserve(`${PLAIN}&bootstrap=1000`);
  expect("release" in alone).toBe(true);
  if ("release" in alone) alone.release();
  expect(admitted.inUse()).toEqual({ costMs: 0, bytes: 0, jobs: 0 });
});
