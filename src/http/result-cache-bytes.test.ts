/**
 * The live result cache is bounded in bytes (--cache-mb), not entries (issue 12, item 4): distinct
 * large results evict the oldest once their JSON passes the bound, so memory cannot grow with them.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sqliteAuthStoreOf } from "../auth/index.ts";
import { openDatabase } from "../../db/open.ts";
import { parseChartParams } from "./params/params.ts";
import type { ChartParams } from "../engine/types.ts";
import { createLogger } from "../logger.ts";
import { ChartService } from "../compute/chart-service.ts";
import { openMarketStore } from "../market/open-store.ts";
import { startComputePool } from "../compute/compute-threads.ts";
import { body, sampleDb, startHarness, type Harness } from "../../test/support/http/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ cacheMb: "2" });
  const auth = sqliteAuthStoreOf(h.server.opened.sqlite);
  await auth.createUser({ id: "filler", now: h.clock.now() });
  await auth.setLimits("filler", { perMinute: 100, perDay: 1000 });
});
afterAll(() => h.stop());

const query = (lookback: number) => `/v1/graph-stats/chart?periods=100&lookback=${lookback}&include_graph=false`;

// An entry holds its JSON twice: the string and, from its first answer, its bytes (src/http/live-body.ts).
test("distinct ~0.9 MB results keep the cache under 2 MiB; the oldest is computed again, the newest is a hit", async () => {
  const token = await h.token("filler");
  let bytes = 0;
  for (let lookback = 20; lookback < 26; lookback++) {
    const res = await h.get(query(lookback), { token });
    expect(res.status).toBe(200);
    bytes += (await res.text()).length;
  }
  expect(2 * bytes).toBeGreaterThan(2 * 2 * 2 ** 20); // the results together are well over the bound
  const last = await body(await h.get(query(25), { token }));
  expect(last.meta.diagnostics.cached).toBe(true);
  const again = await body(await h.get(query(20), { token }));
  expect(again.meta.diagnostics.cached).toBe(false);
});

test("the service's byte count stays within the bound and counts what it holds", async () => {
  const opened = openDatabase(sampleDb());
  const chart = new ChartService(
    openMarketStore({ kind: "sqlite", sqlite: opened.sqlite, path: ":memory:" }),
    startComputePool(0, createLogger("silent")),
    {
      cacheBytes: 2 ** 21,
    },
  );
  try {
    let held = 0;
    for (let lookback = 20; lookback < 26; lookback++) {
      const params = parsed(`periods=100&lookback=${lookback}&include_graph=false`);
      const out = await chart.compute(await chart.prepare(params));
      held = out.body.length;
      expect(chart.cacheBytes()).toBeLessThanOrEqual(2 ** 21);
    }
    expect(chart.cacheBytes()).toBeGreaterThan(held); // the newest at least, with its overhead
  } finally {
    opened.sqlite.close();
  }
});

function parsed(query: string): ChartParams {
  const p = parseChartParams(new URLSearchParams(query), { defaultUniverse: "sample" });
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return p.params;
}
