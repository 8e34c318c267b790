import { describe, expect, test } from "bun:test";
import { mergeDemo, type RollingData, type SnapshotData, toModel, topSymbols } from "./network-data.ts";

const METRICS = ["degree_strength", "pagerank"];
const GRAPH = {
  asof_date: "2025-09-30T00:00:00+05:30",
  nodes: 4,
  edges: 3,
  method: "mst",
  edge_list: [
    { source: "A", target: "B", weight: 0.8, corr: 0.8 },
    { source: "B", target: "C", weight: 0.4, corr: -0.4 },
    { source: "C", target: "D", weight: 0.7, corr: 0.7 },
  ],
  communities: { A: 0, B: 0, C: 1, D: 1 },
  n_communities: 2,
  modularity: 0.3,
};
const SNAPSHOT: SnapshotData = {
  type: "snapshot",
  asof_date: "2025-09-30T00:00:00+05:30",
  metrics: METRICS,
  stocks: [
    { symbol: "A", degree_strength: 0.5, pagerank: 0.2, community: 0, sector: "banks", name: "Alpha" },
    { symbol: "B", degree_strength: 1, pagerank: 0.3, community: 0 },
    { symbol: "C", degree_strength: null, pagerank: 0.25, community: 1 },
    { symbol: "D", degree_strength: 0.5, pagerank: 0.25, community: 1 },
  ],
  graph: GRAPH,
};
const point = (date: string, d: number | null) => ({ date, degree_strength: d, pagerank: 0.25 });
const ROLLING: RollingData = {
  type: "rolling",
  asof_dates: ["2025-09-29T00:00:00+05:30", "2025-09-30T00:00:00+05:30"],
  metrics: METRICS,
  stocks: ["A", "B", "C", "D"].map((s, i) => ({
    symbol: s,
    community: i < 2 ? 0 : 1,
    ...(i === 3 ? { sector: "it" } : {}),
    points: [point("2025-09-29", i / 4), point("2025-09-30", null)],
  })),
  latest_graph: GRAPH,
};

describe("toModel / mergeDemo / topSymbols", () => {
  test("a snapshot keeps each stock's metrics, community and metadata; nulls stay null", () => {
    const m = toModel(SNAPSHOT);
    expect(m.rolling).toBeNull();
    expect(m.stocks[2]).toEqual({ symbol: "C", community: 1, sector: null, name: null, values: { degree_strength: null, pagerank: 0.25 } });
    expect(m.stocks[0]).toMatchObject({ symbol: "A", sector: "banks", name: "Alpha" });
  });

  test("a rolling answer draws its latest graph with the last point's metrics and keeps the series", () => {
    const m = toModel(ROLLING);
    expect(m.asof).toBe("2025-09-30T00:00:00+05:30");
    expect(m.graph).toBe(GRAPH);
    expect(m.stocks[1].values).toEqual({ degree_strength: null, pagerank: 0.25 });
    expect(m.rolling?.series.B.map((p) => p.degree_strength)).toEqual([0.25, null]);
    expect(m.stocks.map((s) => s.sector)).toEqual([null, null, null, "it"]);
  });

  test("the demo takes the snapshot's figures and the rolling sample's series", () => {
    const m = mergeDemo(SNAPSHOT, ROLLING);
    expect(m.stocks[1].values.degree_strength).toBe(1);
    expect(m.rolling?.dates).toHaveLength(2);
    expect(mergeDemo(SNAPSHOT, null).rolling).toBeNull();
  });

  test("top symbols: highest first, ties in response order, nulls last", () => {
    const m = toModel(SNAPSHOT);
    expect(topSymbols(m, "degree_strength", 4)).toEqual(["B", "A", "D", "C"]);
    expect(topSymbols(m, "pagerank", 2)).toEqual(["B", "C"]);
  });
});
