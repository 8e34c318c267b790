import { describe, expect, test } from "bun:test";
import type { NetworkModel } from "./network-data.ts";
import { rollingOption } from "./rolling-option.ts";

/** `n` stocks over three dates; the first four share community 0, so colour by community would repeat. */
function model(n: number): NetworkModel {
  const symbols = Array.from({ length: n }, (_, i) => `S${i}`);
  const points = [{ degree_strength: 0.1 }, { degree_strength: 0.2 }, { degree_strength: 0.3 }];
  return {
    asof: "2025-09-30",
    metrics: ["degree_strength"],
    graph: { nodes: n, edges: 0, method: "mst" },
    stocks: symbols.map((symbol, i) => ({ symbol, community: i < 4 ? 0 : i % 3, values: points[2] })),
    rolling: { dates: ["2025-09-28", "2025-09-29", "2025-09-30"], series: Object.fromEntries(symbols.map((s) => [s, points])) },
  };
}

const lines = (n: number) =>
  rollingOption(
    model(n),
    "degree_strength",
    model(n).stocks.map((s) => s.symbol),
    640,
  ).series;

describe("the rolling chart's lines (docs/dashboard.md)", () => {
  test("each stock has its own colour, stocks of one community included", () => {
    const series = lines(6);
    expect(series.map((s) => s.name)).toEqual(["S0", "S1", "S2", "S3", "S4", "S5"]);
    const colours = series.map((s) => s.lineStyle.color);
    expect(new Set(colours).size).toBe(6);
    // The marker and the legend icon take the line's colour.
    for (const s of series) expect(s.itemStyle.color).toBe(s.lineStyle.color);
    // While there are colours to go round, every line is solid.
    expect(new Set(series.map((s) => s.lineStyle.type))).toEqual(new Set(["solid"]));
  });

  test("past the palette, colour and dash together still tell every line apart", () => {
    const series = lines(21);
    const looks = series.map((s) => `${s.lineStyle.color} ${s.lineStyle.type}`);
    expect(new Set(looks).size).toBe(21);
  });

  test("the tooltip marks each stock with its line's colour and names its community", () => {
    const option = rollingOption(model(5), "degree_strength", ["S0", "S1", "S4"], 640);
    const html = option.tooltip.formatter([
      { seriesName: "S0", seriesIndex: 0, dataIndex: 2, value: 0.3 },
      { seriesName: "S1", seriesIndex: 1, dataIndex: 2, value: 0.2 },
      { seriesName: "S4", seriesIndex: 2, dataIndex: 2, value: 0.1 },
    ]);
    expect(html).toContain("Community 0");
    expect(html).toContain("Community 1");
    const classes = [...html.matchAll(/class="swatch ([^"]+)"/g)].map((m) => m[1]);
    expect(classes.length).toBe(3);
    expect(new Set(classes).size).toBe(3);
  });
});
