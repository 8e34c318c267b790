import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { describeNifty } from "../../../test/support/nifty.ts";
import { body, niftyDb, startHarness, type Harness } from "../../../test/support/http/harness.ts";

const METRICS = ["degree_strength", "eigenvector_centrality", "betweenness_centrality", "closeness_centrality", "pagerank"];

/** A harness and a GET of the live endpoint with one user's token (lifted limits). */
function liveEndpoint(start: () => Promise<Harness>) {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await start();
    token = await h.token("quant");
  });
  afterAll(() => h.stop());
  return async (q: string) => {
    const res = await h.get(`/v1/graph-stats/chart?${q}`, { token });
    return { res, b: await body(res) };
  };
}

describe("live endpoint payloads on the synthetic sample", () => {
  const get = liveEndpoint(() => startHarness({ ratePerMinute: "1000", ratePerDay: "100000" }));

  test("snapshot: shape of docs/api.md § The answer with graph, communities and every effective parameter in meta", async () => {
    const { res, b } = await get("asof=2024-06-28");
    expect(res.status).toBe(200);
    expect(b.data.type).toBe("snapshot");
    expect(b.data.asof_date).toBe("2024-06-28T00:00:00+05:30");
    expect(b.data.interval).toBe("1d");
    expect(b.data.metrics).toEqual(METRICS);
    expect(b.data.stocks).toHaveLength(50);
    for (const s of b.data.stocks) {
      for (const m of METRICS) expect(typeof s[m] === "number" || s[m] === null).toBe(true);
      expect(Number.isInteger(s.community)).toBe(true);
    }
    const g = b.data.graph;
    expect(g).toMatchObject({ method: "mst", nodes: 50, edges: 49 });
    expect(g.edge_list).toHaveLength(49);
    expect(Object.keys(g.communities)).toHaveLength(50);
    expect(g.n_communities).toBeGreaterThan(1);
    expect(g.modularity).toBeGreaterThan(0);
    expect(b.meta.params).toMatchObject({ universe: "sample", interval: "1d", lookback: 60, periods: 1, step: 1, graph_method: "mst" });
    expect(b.meta.diagnostics).toMatchObject({
      n_requested: 50,
      n_in_graph: 50,
      missing_symbols: [],
      data_source: "synthetic",
      window_bars: 61,
    });
    expect(typeof b.meta.diagnostics.compute_ms).toBe("number");
  });

  test("rolling: one call returns a series per stock, oldest first", async () => {
    const { b } = await get("asof=2024-06-28&periods=5&step=2&metrics=pagerank,degree_strength");
    expect(b.data.type).toBe("rolling");
    expect(b.data.asof_dates).toHaveLength(5);
    expect([...b.data.asof_dates].sort()).toEqual(b.data.asof_dates);
    expect(b.data.asof_dates.at(-1)).toBe("2024-06-28T00:00:00+05:30");
    expect(b.data.stocks[0].points).toHaveLength(5);
    expect(Object.keys(b.data.stocks[0].points[0]).sort()).toEqual(["community", "date", "degree_strength", "pagerank"]);
    expect(b.data.latest_graph.asof_date).toBe("2024-06-28T00:00:00+05:30");
  });

  test("the last point of a rolling series equals the snapshot at the same as-of", async () => {
    const roll = (await get("asof=2023-03-31&periods=3&graph_method=knn")).b;
    const snap = (await get("asof=2023-03-31&graph_method=knn")).b;
    for (const [i, s] of snap.data.stocks.entries()) {
      const last = roll.data.stocks[i].points.at(-1);
      for (const m of METRICS) expect(last[m]).toBe(s[m]);
    }
  });

  test("symbols keep their order; unknown ones are reported, not fatal", async () => {
    const { res, b } = await get("symbols=CODEWAVE,ALPHABANK,SUNVOLT,NOPE&metrics=pagerank");
    expect(res.status).toBe(200);
    expect(b.data.stocks.map((s: { symbol: string }) => s.symbol)).toEqual(["CODEWAVE", "ALPHABANK", "SUNVOLT"]);
    expect(b.meta.diagnostics.missing_symbols).toEqual(["NOPE"]);
    expect(b.meta.diagnostics.n_requested).toBe(4);
  });

  test("fewer than 2 known symbols → 404 NOT_FOUND", async () => {
    const { res, b } = await get("symbols=ALPHABANK,NOPE");
    expect(res.status).toBe(404);
    expect(b.errors[0].message).toContain("NOPE");
  });

  test("include_graph=false keeps only nodes, edges, method and drops community; sort orders by a metric", async () => {
    const { b } = await get("include_graph=false&sort=pagerank&metrics=pagerank");
    expect(b.meta.params.asof).toBe("2025-09-30"); // the effective as-of: the latest bar's date
    expect(Object.keys(b.data.graph).sort()).toEqual(["edges", "method", "nodes"]);
    expect(b.data.stocks[0].community).toBeUndefined();
    const values = b.data.stocks.map((s: { pagerank: number }) => s.pagerank);
    expect(values).toEqual([...values].sort((x: number, y: number) => y - x));
  });

  test("NOVAGRID is dropped where the window predates its listing (2024-03-01)", async () => {
    const { b } = await get("asof=2024-04-15");
    expect(b.meta.diagnostics.dropped_insufficient_bars).toEqual(["NOVAGRID"]);
    expect(b.data.stocks.find((s: { symbol: string }) => s.symbol === "NOVAGRID").pagerank).toBeNull();
    expect(b.data.graph.nodes).toBe(49);
  });

  test("weekly bars are resampled from the daily ones", async () => {
    const { res, b } = await get("interval=1w&lookback=52&asof=2025-09-30");
    expect(res.status).toBe(200);
    expect(b.data.interval).toBe("1w");
    expect(b.meta.diagnostics.window_bars).toBe(53);
  });

  test("a repeated question is answered from the cache with the same data", async () => {
    const a = await get("asof=2022-12-30&graph_method=threshold&corr_threshold=0.4");
    const c = await get("asof=2022-12-30&graph_method=threshold&corr_threshold=0.4");
    expect(c.b.meta.diagnostics.cached).toBe(true);
    expect(JSON.stringify(c.b.data)).toBe(JSON.stringify(a.b.data));
  });
});

describeNifty("live endpoint payloads on the real NIFTY-50 data", () => {
  const get = liveEndpoint(() =>
    startHarness({ ratePerMinute: "1000", ratePerDay: "100000", defaultUniverse: "nifty50" }, { dbPath: niftyDb() }),
  );

  test("an imported universe: every stock in the graph, labelled imported", async () => {
    const { res, b } = await get("asof=2024-06-28");
    expect(res.status).toBe(200);
    expect(b.data.graph).toMatchObject({ method: "mst", nodes: 50, edges: 49 });
    expect(b.meta.params.universe).toBe("nifty50");
    expect(b.meta.diagnostics).toMatchObject({
      n_requested: 50,
      n_in_graph: 50,
      missing_symbols: [],
      data_source: "imported",
      window_bars: 61,
    });
  });

  test("symbols with & and - work in the query string; unknown ones are reported, not fatal", async () => {
    const { res, b } = await get("symbols=M%26M,BAJAJ-AUTO,INFY,NOPE&metrics=pagerank");
    expect(res.status).toBe(200);
    expect(b.data.stocks.map((s: { symbol: string }) => s.symbol)).toEqual(["M&M", "BAJAJ-AUTO", "INFY"]);
    expect(b.meta.diagnostics.missing_symbols).toEqual(["NOPE"]);
    expect(b.meta.diagnostics.n_requested).toBe(4);
  });

  test("ETERNAL and JIOFIN are dropped where the window predates their listing", async () => {
    const { b } = await get("asof=2021-06-30");
    expect(b.meta.diagnostics.dropped_insufficient_bars).toEqual(expect.arrayContaining(["ETERNAL", "JIOFIN"]));
    expect(b.data.stocks.find((s: { symbol: string }) => s.symbol === "JIOFIN").pagerank).toBeNull();
    expect(b.data.graph.nodes).toBe(48);
  });
});
