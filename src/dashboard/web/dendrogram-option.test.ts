import { describe, expect, test } from "bun:test";
import { clusterColour, dendrogramCaption, dendrogramHeight, dendrogramOption, dendrogramSegments, LEAF_ROW } from "./dendrogram-option.ts";
import type { HierarchyData } from "./network-data.ts";
import { lineColour } from "./palette.ts";

/** ((A, B) at 0.2, (C, D) at 0.3) at 0.9: scipy's Z for four leaves, two pairs. */
const pairs: HierarchyData = {
  asof_date: "2024-06-28T00:00:00+05:30",
  method: "average",
  distance: "unsigned",
  leaves: ["A", "B", "C", "D"],
  merges: [
    [0, 1, 0.2, 2],
    [2, 3, 0.3, 2],
    [4, 5, 0.9, 4],
  ],
  leaf_order: ["A", "B", "C", "D"],
};

/** A chain whose leaf order is not the leaves' order: D joins (B joins (A, C)). */
const chain: HierarchyData = {
  ...pairs,
  method: "single",
  merges: [
    [0, 2, 0.1, 2],
    [1, 4, 0.5, 3],
    [3, 5, 0.7, 4],
  ],
  leaf_order: ["D", "B", "A", "C"],
};

describe("the dendrogram's segments (docs/dashboard.md)", () => {
  test("each merge is a ⊓ from its children's feet up to its height; a cluster sits between its children", () => {
    expect(dendrogramSegments(pairs).map((s) => s.points)).toEqual([
      [
        [0, 0],
        [0, 0.2],
        [1, 0.2],
        [1, 0],
      ],
      [
        [2, 0],
        [2, 0.3],
        [3, 0.3],
        [3, 0],
      ],
      [
        [0.5, 0.2],
        [0.5, 0.9],
        [2.5, 0.9],
        [2.5, 0.3],
      ],
    ]);
  });

  test("leaves stand at their place in leaf_order, not in leaves", () => {
    expect(dendrogramSegments(chain).map((s) => s.points)).toEqual([
      [
        [2, 0],
        [2, 0.1],
        [3, 0.1],
        [3, 0],
      ],
      [
        [1, 0],
        [1, 0.5],
        [2.5, 0.5],
        [2.5, 0.1],
      ],
      [
        [0, 0],
        [0, 0.7],
        [1.75, 0.7],
        [1.75, 0.5],
      ],
    ]);
    expect(dendrogramSegments(chain).map((s) => s.size)).toEqual([2, 3, 4]);
  });

  test("merges inside one flat cluster take its colour; the merges above the cut are grey", () => {
    const h = { ...pairs, n_clusters: 2, clusters: { A: 1, B: 1, C: 2, D: 2 } };
    const segments = dendrogramSegments(h);
    expect(segments.map((s) => s.cluster)).toEqual([1, 2, null]);
    const series = dendrogramOption(h).series;
    expect(series.map((s) => s.lineStyle.color)).toEqual([lineColour(0), lineColour(1), clusterColour(null)]);
    expect(dendrogramCaption(h)).toBe("As of 2024-06-28 · average linkage on the unsigned distance · 4 stocks · 2 flat clusters");
  });

  test("a height that is not finite is drawn just above the highest one", () => {
    const h: HierarchyData = { ...pairs, merges: [pairs.merges[0], pairs.merges[1], [4, 5, null, 4]] };
    const top = dendrogramSegments(h)[2];
    expect(top.height).toBeCloseTo(0.315, 10);
    expect(top.points[0]).toEqual([0.5, 0.2]);
  });

  test("on its side: the y axis names each leaf in leaf order from the top, only at whole positions; heights run along x", () => {
    const option = dendrogramOption(chain);
    expect(option.series.length).toBe(3);
    expect([0, 1, 2, 3].map(option.yAxis.axisLabel.formatter)).toEqual(["D", "B", "A", "C"]);
    expect(option.yAxis.axisLabel.formatter(-0.5)).toBe("");
    expect(option.yAxis.axisLabel.formatter(3.5)).toBe("");
    expect(option.yAxis.inverse).toBe(true);
    // The first merge joins A (row 2) and C (row 3) at 0.1: its points are (height, row).
    expect(option.series[0].data).toEqual([
      [0, 2],
      [0.1, 2],
      [0.1, 3],
      [0, 3],
    ]);
    expect(option.tooltip.formatter({ seriesIndex: 1 })).toContain("3 stocks at height 0.5000");
  });

  test("the chart is as tall as its leaves need: a row each past a panel's worth (#42 item 7)", () => {
    expect(dendrogramHeight(4)).toBe(240);
    expect(dendrogramHeight(50)).toBeGreaterThanOrEqual(50 * LEAF_ROW);
    expect(dendrogramHeight(100) - dendrogramHeight(50)).toBe(50 * LEAF_ROW);
    expect(LEAF_ROW).toBeGreaterThanOrEqual(14);
  });
});
