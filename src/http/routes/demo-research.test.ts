/**
 * The demo's rolling sample carries issue 15's per-date structure: every point its tracked
 * community and data.graph_stats one entry per as-of (the demo ignores every other parameter,
 * docs/api.md § GET /v1/demo/chart, so this is what a first-time user sees of it).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { body, startHarness, type Harness } from "../../../test/support/http/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

test("GET /v1/demo/chart?periods=5: each point has a community, graph_stats has one entry per as-of", async () => {
  const res = await h.get("/v1/demo/chart?periods=5");
  expect(res.status).toBe(200);
  const { data } = await body(res);
  expect(data.type).toBe("rolling");
  expect(data.asof_dates).toHaveLength(5);
  expect(data.stocks.length).toBeGreaterThan(40);
  for (const stock of data.stocks) {
    expect(stock.points).toHaveLength(5);
    for (const point of stock.points) expect(Number.isInteger(point.community)).toBe(true);
  }
  // Labels are tracked across dates, so more than one community appears and they persist.
  const labels = new Set(data.stocks.flatMap((s: any) => s.points.map((p: any) => p.community)));
  expect(labels.size).toBeGreaterThan(1);
  expect(data.graph_stats.map((s: any) => s.date)).toEqual(data.asof_dates);
  for (const s of data.graph_stats) {
    expect(s.nodes).toBe(data.stocks.length);
    expect(s.edges).toBe(s.nodes - 1); // the demo's graph is the MST
    expect(s.n_communities).toBeGreaterThan(1);
    expect(s.modularity).toBeGreaterThan(0);
    for (const key of ["mean_abs_corr", "tree_length", "avg_shortest_path"]) {
      expect(typeof s[key]).toBe("number");
      expect(s[key]).toBeGreaterThan(0);
    }
  }
});
