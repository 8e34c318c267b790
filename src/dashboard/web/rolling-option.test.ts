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

describe("the rolling chart's bootstrap bands", () => {
  /** model(n) with each stock's band a width 0.1 round its value, the first date outside S0's window. */
  function banded(n: number): NetworkModel {
    const m = model(n);
    const bands = Object.fromEntries(
      Object.entries(m.rolling!.series).map(([sym, points]) => [
        sym,
        points.map((p, i) => ({
          p05: { degree_strength: sym === "S0" && i === 0 ? null : p.degree_strength! - 0.05 },
          p95: { degree_strength: sym === "S0" && i === 0 ? null : p.degree_strength! + 0.05 },
        })),
      ]),
    );
    return { ...m, rolling: { ...m.rolling!, bands } };
  }

  test("no band without percentiles: one series per stock", () => {
    expect(rollingOption(model(3), "degree_strength", ["S0", "S1"], 640).series.length).toBe(2);
  });

  test("each shown stock's band runs from its p05 to its p95, filled in its line's colour, under the lines", () => {
    const option = rollingOption(banded(4), "degree_strength", ["S1", "S0"], 640);
    const [s1, s0, ...bands] = option.series as any[];
    expect([s1.name, s0.name]).toEqual(["S1", "S0"]);
    expect(bands.map((b) => b.id)).toEqual(["band-lo S1", "band-hi S1", "band-lo S0", "band-hi S0"]);
    for (const [line, lo, hi] of [
      [s1, bands[0], bands[1]],
      [s0, bands[2], bands[3]],
    ]) {
      // Stacked: the lower edge is p05, the filled width brings it to p95.
      expect(lo.stack).toBe(hi.stack);
      expect(lo.areaStyle).toBeUndefined();
      expect(hi.areaStyle.color).toBe(line.lineStyle.color);
      expect(hi.areaStyle.opacity).toBeGreaterThan(0);
      expect(hi.areaStyle.opacity).toBeLessThan(0.5);
      expect(lo.name).toBe(line.name); // one legend entry hides the line and its band
      expect(lo.z).toBeLessThan(2); // ECharts draws lines at z 2
    }
    expect(bands[0].data).toEqual([0.05, 0.15, 0.25].map((v) => expect.closeTo(v, 12)));
    expect(bands[1].data).toEqual([0.1, 0.1, 0.1].map((v) => expect.closeTo(v, 12)));
    // Outside the window (no percentile) the band has a gap.
    expect(bands[2].data[0]).toBeNull();
    expect(bands[3].data[0]).toBeNull();
    expect(option.legend.data).toEqual(["S1", "S0"]);
  });

  test("the tooltip lists the lines only, each with its band", () => {
    const option = rollingOption(banded(3), "degree_strength", ["S0", "S1"], 640);
    const html = option.tooltip.formatter([
      { seriesName: "S0", seriesIndex: 0, dataIndex: 1, value: 0.2 },
      { seriesName: "S1", seriesIndex: 1, dataIndex: 1, value: 0.2 },
      { seriesName: "S0", seriesIndex: 2, dataIndex: 1, value: 0.15 },
      { seriesName: "S0", seriesIndex: 3, dataIndex: 1, value: 0.1 },
    ]);
    expect([...html.matchAll(/<tr>/g)].length).toBe(2);
    expect(html).toContain("(p05–p95 0.1500–0.2500)");
  });
});
