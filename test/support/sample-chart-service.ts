/**
 * A ChartService over a fresh SQLite database holding the sample and one compute thread, for the
 * tests that drive preparation, admission and computation without HTTP. Call it at a file's top
 * level: its database and thread live for the file (torn down in afterAll).
 */
import { afterAll, beforeAll } from "bun:test";
import { join } from "node:path";
import type { AdmittedWork } from "../../src/compute/admitted-work.ts";
import { ChartService } from "../../src/compute/chart-service.ts";
import type { ComputePool } from "../../src/compute/compute-pool.ts";
import { startComputePool } from "../../src/compute/compute-threads.ts";
import type { ChartParams } from "../../src/engine/types.ts";
import { parseChartParams } from "../../src/http/params/params.ts";
import { createLogger } from "../../src/logger.ts";
import { loadSample } from "../../src/market/index.ts";
import { openMarketStore } from "../../src/market/open-store.ts";
import { tempDb } from "./market-db.ts";

export function sampleChartService() {
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
  return {
    db,
    /** The file's compute thread (its counters), once beforeAll has run. */
    pool: () => pool,
    service: (admitted?: AdmittedWork): ChartService =>
      new ChartService(openMarketStore({ kind: "sqlite", sqlite: db.sqlite, path: join(db.dir, "test.sqlite") }), pool, { admitted }),
    params: (q: string): ChartParams => {
      const parsed = parseChartParams(new URLSearchParams(q), { defaultUniverse: "sample" });
      if (!parsed.ok) throw new Error(parsed.errors.join("; "));
      return parsed.params;
    },
  };
}
