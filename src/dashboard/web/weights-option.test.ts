import { describe, expect, test } from "bun:test";
import { type RollingData, type SnapshotData, toModel } from "./network-data.ts";
import { communityColour } from "./palette.ts";
import {
  percent,
  scaleEnd,
  TOP_WEIGHTS,
  weightBars,
  weightsCaption,
  weightsLabel,
  weightsOption,
  weightsTableHtml,
} from "./weights-option.ts";

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

/** `n` stocks in two communities, weights 1, 2, …, n (normalised), at two as-ofs, the first reversed. */
function many(n: number) {
  const symbols = Array.from({ length: n }, (_, i) => `S${String(i + 1).padStart(2, "0")}`);
  const total = (n * (n + 1)) / 2;
  return {
    ...toModel(snapshot),
    stocks: symbols.map((symbol, i) => ({ symbol, community: i % 2, values: {} })),
    weights: {
      method: "hrp",
      dates: ["2024-06-14T00:00:00+05:30", "2024-06-28T00:00:00+05:30"],
      bySymbol: Object.fromEntries(symbols.map((s, i) => [s, [(n - i) / total, (i + 1) / total]])),
      turnover: [null, 0.25],
    },
  };
}

describe("the weights chart (docs/dashboard.md, #42 item 7)", () => {
  test("a snapshot of a few stocks: one bar each, largest first, in its community's colour", () => {
    const model = toModel(snapshot);
    expect(model.weights?.bySymbol).toEqual({ A: [0.2], B: [0.5], C: [0.3] });
    const option = weightsOption(model);
    expect(option.yAxis[0].data).toEqual(["B", "C", "A"]);
    expect(option.yAxis[0].inverse).toBe(true);
    expect(option.series.length).toBe(1);
    const bars = (option.series[0] as { data: { value: number; itemStyle: { color: string } }[] }).data;
    expect(bars.map((b) => b.value)).toEqual([0.5, 0.3, 0.2]);
    expect(bars.map((b) => b.itemStyle.color)).toEqual([communityColour(1), communityColour(0), communityColour(0)]);
    expect(weightsCaption(model)).toBe(
      "Portfolio weights (hierarchical risk parity) as of 2024-06-28: 3 stocks. Hover a bar for its stocks.",
    );
  });

  test("fifty stocks: the ten largest and one bar for the other forty, which its tooltip lists", () => {
    const model = many(50);
    const bars = weightBars(model);
    expect(bars.length).toBe(TOP_WEIGHTS + 1);
    expect(bars.slice(0, 10).map((b) => b.label)).toEqual(["S50", "S49", "S48", "S47", "S46", "S45", "S44", "S43", "S42", "S41"]);
    expect(bars[10].label).toBe("Others (40)");
    expect(bars[10].latest).toBeCloseTo(820 / 1275, 12); // 1 + … + 40 of 1 + … + 50
    expect(bars.reduce((a, b) => a + (b.latest ?? 0), 0)).toBeCloseTo(1, 12);
    const option = weightsOption(model);
    expect(option.yAxis[0].data).toEqual(bars.map((b) => b.label));
    expect(option.yAxis[1].data).toEqual(bars.map((b) => percent(b.latest)));
    // The others (64 %) would shrink the ten (3.9 % at most) to slivers: the scale ends at 5 %, their bar cut there.
    expect(option.xAxis.max).toBe(scaleEnd(50 / 1275));
    expect(option.xAxis.max).toBeCloseTo(0.05, 12);
    expect(weightsCaption(model)).toContain("the 10 largest of 50 stocks and the rest together (its bar cut at the scale's end)");
    const colours = (option.series[0] as { data: { itemStyle: { color: string } }[] }).data.map((d) => d.itemStyle.color);
    expect(colours[10]).toBe("#8a8f98");
    const others = option.tooltip.formatter([{ dataIndex: 10 }]);
    expect(others.match(/<span class="swatch/g)?.length).toBe(40);
    expect(others.indexOf(">S40<")).toBeLessThan(others.indexOf(">S01<"));
    expect(option.tooltip.formatter([{ dataIndex: 0 }])).toContain("S50");
    expect(weightsLabel(model)).toStartWith("Bar chart. The 10 largest portfolio weights and the other 40 stocks together: S50 3.9%, ");
    expect(weightsLabel(model)).toEndWith(`Others (40) ${(82000 / 1275).toFixed(1)}%.`);
  });

  test("the scale ends 10 % past the largest bar, on a whole step", () => {
    const ends = [0.054, 0.091, 0.2, 0.6, 0.95].map(scaleEnd);
    [0.06, 0.11, 0.25, 0.7, 1].forEach((v, i) => expect(ends[i]).toBeCloseTo(v, 12));
  });

  test("eleven stocks are eleven bars: an 'others' bar of one would hide a name for nothing", () => {
    expect(weightBars(many(11)).map((b) => b.label)).not.toContain("Others (1)");
    expect(weightBars(many(11)).length).toBe(11);
    expect(weightBars(many(12)).at(-1)?.label).toBe("Others (2)");
  });

  test("a rolling answer: the bars at the latest as-of, a tick at the first's, the mean turnover in the caption", () => {
    const model = toModel(rolling);
    const option = weightsOption(model);
    expect(option.yAxis[0].data).toEqual(["B", "C", "A"]);
    expect(option.series.map((s) => (s as { name: string }).name)).toEqual(["2024-06-28", "2024-06-14"]);
    expect((option.series[1] as { data: unknown[] }).data).toEqual([
      [null, "B"],
      [0.4, "C"],
      [0.6, "A"],
    ]);
    const tip = option.tooltip.formatter([{ dataIndex: 2 }]);
    expect(tip).toContain("2024-06-14</th><td>60.0%");
    expect(tip).toContain("2024-06-28</th><td>20.0%");
    expect(weightsCaption(model)).toContain(
      "the ticks are the weights at 2024-06-14, the first of 2 as-of dates · mean one-way turnover 50.0%",
    );
  });

  test("the table has every stock, largest first, with both as-ofs of a rolling answer", () => {
    const html = weightsTableHtml(many(50));
    expect(html.match(/<tr><th scope="row">/g)?.length).toBe(50);
    expect(html.indexOf(">S50<")).toBeLessThan(html.indexOf(">S01<"));
    expect(html).toContain('<th scope="col">2024-06-14</th><th scope="col">2024-06-28</th>');
  });

  test("an answer without weights has none", () => {
    expect(toModel({ ...snapshot, weights: undefined }).weights).toBeNull();
  });
});
