import { describe, expect, test } from "bun:test";
import { type RollingData, type SnapshotData, toModel } from "./network-data.ts";
import { communityColour, LINE_COLOURS } from "./palette.ts";
import { weightOrder, weightsCaption, weightsOption } from "./weights-option.ts";

const graph = { nodes: 3, edges: 2, method: "mst", communities: { A: 0, B: 1, C: 0 } };
const hierarchy = {
  asof_date: "2024-06-28",
  method: "single",
  distance: "unsigned",
  leaves: ["A", "B", "C"],
  merges: [
    [0, 2, 0.1, 2],
    [1, 3, 0.5, 3],
  ] as [number, number, number, number][],
  leaf_order: ["B", "A", "C"],
};

const snapshot: SnapshotData = {
  type: "snapshot",
  asof_date: "2024-06-28T00:00:00+05:30",
  metrics: ["pagerank"],
  stocks: [
    { symbol: "A", pagerank: 0.3, weight: 0.2 },
    { symbol: "B", pagerank: 0.4, weight: 0.5 },
    { symbol: "C", pagerank: 0.3, weight: 0.3 },
  ],
  graph,
  weights: { method: "hrp" },
};

const rolling: RollingData = {
  type: "rolling",
  asof_dates: ["2024-06-14T00:00:00+05:30", "2024-06-28T00:00:00+05:30"],
  metrics: ["pagerank"],
  stocks: [
    {
      symbol: "A",
      points: [
        { date: "2024-06-14T00:00:00+05:30", pagerank: 0.3, weight: 0.6 },
        { date: "2024-06-28T00:00:00+05:30", pagerank: 0.3, weight: 0.2 },
      ],
    },
    {
      symbol: "B",
      points: [
        { date: "2024-06-14T00:00:00+05:30", pagerank: 0.3, weight: null },
        { date: "2024-06-28T00:00:00+05:30", pagerank: 0.3, weight: 0.5 },
      ],
    },
    {
      symbol: "C",
      points: [
        { date: "2024-06-14T00:00:00+05:30", pagerank: 0.3, weight: 0.4 },
        { date: "2024-06-28T00:00:00+05:30", pagerank: 0.3, weight: 0.3 },
      ],
    },
  ],
  latest_graph: graph,
  latest_hierarchy: hierarchy,
  weights: { method: "hrp", turnover: [null, 0.5] },
};

describe("the weights chart (docs/dashboard.md)", () => {
  test("a snapshot is one bar per stock, largest first, in its community's colour", () => {
    const model = toModel(snapshot);
    expect(model.weights?.bySymbol).toEqual({ A: [0.2], B: [0.5], C: [0.3] });
    const option = weightsOption(model, 640);
    expect(option.xAxis.data).toEqual(["B", "C", "A"]);
    expect(option.series.length).toBe(1);
    const bars = option.series[0].data as { value: number; itemStyle: { color: string } }[];
    expect(bars.map((b) => b.value)).toEqual([0.5, 0.3, 0.2]);
    expect(bars.map((b) => b.itemStyle.color)).toEqual([communityColour(1), communityColour(0), communityColour(0)]);
    expect(weightsCaption(model)).toContain("hierarchical risk parity");
  });

  test("with a hierarchy the stocks follow its leaf order", () => {
    expect(weightOrder({ ...toModel(snapshot), hierarchy })).toEqual(["B", "A", "C"]);
  });

  test("a rolling answer is a stacked bar per as-of, one series per stock, nulls kept as gaps", () => {
    const model = toModel(rolling);
    expect(model.hierarchy?.leaf_order).toEqual(["B", "A", "C"]);
    const option = weightsOption(model, 640);
    expect(option.xAxis.data).toEqual(["2024-06-14", "2024-06-28"]);
    expect(option.series.map((s) => s.name)).toEqual(["B", "A", "C"]);
    expect(option.series.map((s) => s.data)).toEqual([
      [null, 0.5],
      [0.6, 0.2],
      [0.4, 0.3],
    ]);
    for (const s of option.series) expect(s).toMatchObject({ type: "bar", stack: "weights" });
    const colours = option.series.map((s) => (s as { itemStyle: { color: string } }).itemStyle.color);
    expect(colours).toEqual(LINE_COLOURS.slice(0, 3));
    const html = option.tooltip.formatter([
      { seriesName: "B", seriesIndex: 0, dataIndex: 1, value: 0.5 },
      { seriesName: "A", seriesIndex: 1, dataIndex: 1, value: 0.2 },
    ]);
    expect(html).toContain("Turnover 0.5000");
    expect(html.indexOf(">B<")).toBeLessThan(html.indexOf(">A<"));
    expect(weightsCaption(model)).toContain("mean one-way turnover 50%");
  });

  test("past seven stocks the bands take their community's colour, grouped by community", () => {
    const symbols = Array.from({ length: 9 }, (_, i) => `S${i}`);
    const dates = ["2024-06-14", "2024-06-28"];
    const model = {
      ...toModel(snapshot),
      stocks: symbols.map((symbol, i) => ({ symbol, community: i % 2, values: {} })),
      weights: { method: "equal", dates, bySymbol: Object.fromEntries(symbols.map((s) => [s, [1 / 9, 1 / 9]])), turnover: null },
    };
    const series = weightsOption(model, 640).series as { name: string; itemStyle: { color: string } }[];
    expect(series.map((s) => s.name)).toEqual(["S0", "S2", "S4", "S6", "S8", "S1", "S3", "S5", "S7"]);
    expect(series.map((s) => s.itemStyle.color)).toEqual([...Array(5).fill(communityColour(0)), ...Array(4).fill(communityColour(1))]);
  });

  test("an answer without weights has none", () => {
    expect(toModel({ ...snapshot, weights: undefined }).weights).toBeNull();
  });
});
