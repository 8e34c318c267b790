import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { describeNifty } from "../../../test/support/nifty.ts";
import { body, niftyDb, startHarness, type Harness } from "../../../test/support/http/harness.ts";

const METRICS = ["degree_strength", "eigenvector_centrality", "betweenness_centrality", "closeness_centrality", "pagerank"];

/** The servers the describes below start, stopped once the file is done. */
const servers = new Set<Harness>();
afterAll(async () => {
  for (const h of servers) await h.stop();
});
/** The synthetic sample's server: one for both of its describes (each with a user of its own). */
let synthetic: Promise<Harness> | undefined;
const onSample = () => (synthetic ??= startHarness({ ratePerMinute: "1000", ratePerDay: "100000" }));

/** A GET of the live endpoint with one user's token (lifted limits), on the server `start` gives. */
function liveEndpoint(start: () => Promise<Harness>, user = "quant") {
  let h: Harness;
  let token: string;
  beforeAll(async () => {
    h = await start();
    servers.add(h);
    token = await h.token(user);
  });
  const raw = (q: string) => h.get(`/v1/graph-stats/chart?${q}`, { token });
  const get = async (q: string) => {
    const res = await raw(q);
    return { res, b: await body(res) };
  };
  return Object.assign(get, { raw });
}

describe("live endpoint payloads on the synthetic sample", () => {
  const get = liveEndpoint(onSample);

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

describe("issue 26 options on the live endpoint (synthetic sample)", () => {
  const get = liveEndpoint(onSample, "researcher");
  const raw = get.raw;

  test("snapshot: pmfg on kendall τ-b, an average-linkage tree with 5 clusters and HRP weights", async () => {
    const { res, b } = await get("asof=2024-06-28&graph_method=pmfg&corr_method=kendall&hierarchy=average&clusters=5&weights=hrp");
    expect(res.status).toBe(200);
    expect(b.data.graph).toMatchObject({ method: "pmfg", nodes: 50, edges: 144 });
    const h = b.data.hierarchy;
    expect(h).toMatchObject({ asof_date: "2024-06-28T00:00:00+05:30", method: "average", distance: "unsigned" });
    expect(h.leaves).toHaveLength(50);
    expect(h.merges).toHaveLength(49);
    expect(h.merges.at(-1)).toEqual([expect.any(Number), 97, expect.any(Number), 50]); // the root: merge 47 (id 97) joins the rest
    expect([...h.leaf_order].sort()).toEqual([...h.leaves].sort());
    expect(h.n_clusters).toBeLessThanOrEqual(5);
    expect(b.data.weights).toEqual({ method: "hrp" });
    let sum = 0;
    for (const s of b.data.stocks) {
      expect(s.cluster).toBe(h.clusters[s.symbol]);
      expect(s.weight).toBeGreaterThan(0);
      sum += s.weight;
    }
    expect(Math.abs(sum - 1)).toBeLessThan(1e-4);
    expect(b.meta.params).toMatchObject({ hierarchy: "average", hierarchy_distance: "unsigned", clusters: 5, weights: "hrp" });
  });

  test("rolling: weights and clusters per point, turnover per as-of (null first), the latest tree; weights=hrp alone is single linkage", async () => {
    const { res, b } = await get("asof=2024-06-28&periods=5&step=5&weights=hrp&corr_method=distance&include_graph=false&metrics=pagerank");
    expect(res.status).toBe(200);
    expect(b.meta.params.hierarchy).toBe("single");
    expect(b.data.weights.method).toBe("hrp");
    expect(b.data.weights.turnover).toHaveLength(5);
    expect(b.data.weights.turnover[0]).toBeNull();
    for (const t of b.data.weights.turnover.slice(1)) expect(t).toBeGreaterThan(0);
    expect(b.data.latest_hierarchy).toMatchObject({ method: "single", asof_date: "2024-06-28T00:00:00+05:30" });
    expect(b.data.hierarchies).toBeUndefined();
    expect(Object.keys(b.data.stocks[0].points[0]).sort()).toEqual(["date", "pagerank", "weight"]);
  });

  test("format=csv carries cluster and weight rows; the tree alone in csv is a 400 saying what to ask", async () => {
    const res = await raw("asof=2024-06-28&hierarchy=ward&clusters=4&weights=inverse_variance&format=csv&metrics=pagerank");
    expect(res.status).toBe(200);
    const lines = (await res.text()).trimEnd().split("\n");
    expect(lines.filter((l) => l.split(",")[2] === "cluster")).toHaveLength(50);
    expect(lines.filter((l) => l.split(",")[2] === "weight")).toHaveLength(50);
    const bad = await get("hierarchy=ward&format=csv");
    expect(bad.res.status).toBe(400);
    expect(bad.b.errors[0].message).toContain("format=json only");
  });

  test("interactions are 400s naming what to change, all at once", async () => {
    const { res, b } = await get(
      "weights=hrp&hierarchy=none&clusters=3&corr_method=distance&hierarchy_distance=signed&shrinkage=ledoit_wolf",
    );
    expect(res.status).toBe(400);
    expect(b.errors.map((e: { message: string }) => e.message)).toEqual([
      "shrinkage=ledoit_wolf works on the sample covariance, so it needs corr_method=pearson, got corr_method='distance'; use corr_method=pearson or shrinkage=none",
      "weights=hrp allocates down a hierarchical clustering tree, so it needs a linkage, got hierarchy='none'; give hierarchy=single, average, complete or ward, or leave hierarchy out (single is used)",
      "hierarchy_distance=signed reads the sign of the correlation, and corr_method=distance has none (distance correlation is in [0, 1], so both distances are the same); drop hierarchy_distance, or choose corr_method=pearson, spearman, ewma or kendall",
    ]);
  });
});

describe("signal or noise through the live endpoint", () => {
  const get = liveEndpoint(onSample, "signal-noise");

  test("spectrum, matrix, reliability, percentiles and stability as the document describes them; seed echoed", async () => {
    const { SnapshotData, RollingData } = await import("../openapi/response-schemas.ts");
    const { res, b } = await get("asof=2024-06-28&denoise=mp&spectrum=true&include_corr=true&bootstrap=10&seed=5&metrics=pagerank");
    expect(res.status).toBe(200);
    expect(SnapshotData.safeParse(b.data).success).toBe(true);
    expect(b.data.graph.spectrum.eigenvalues).toHaveLength(50);
    expect(b.data.graph.corr_matrix.symbols).toEqual(b.data.stocks.map((s: { symbol: string }) => s.symbol));
    expect(typeof b.data.graph.edge_list[0].reliability).toBe("number");
    expect(typeof b.data.stocks[0].pagerank_p95).toBe("number");
    expect(typeof b.data.graph.community_stability).toBe("number");
    expect(b.meta.params).toMatchObject({ denoise: "mp", spectrum: true, include_corr: true, bootstrap: 10, seed: 5, detone: 0 });
    const r = await get("asof=2024-06-28&periods=3&detone=1&spectrum=true&bootstrap=3&include_graph=all&metrics=pagerank");
    expect(r.res.status).toBe(200);
    expect(RollingData.safeParse(r.b.data).success).toBe(true);
  });

  test("bad values are 400s naming the parameter", async () => {
    const { res, b } = await get("bootstrap=0&detone=9&seed=1");
    expect(res.status).toBe(400);
    expect(b.errors.map((e: { message: string }) => e.message)).toEqual([
      "detone must be an integer from 0 to 5, got '9'",
      "bootstrap must be an integer from 1 to 1000, got '0'",
    ]);
  });
});
