import { describe, expect, test } from "bun:test";
import { type LabelledNode, labelRect, overlaps, placeLabels } from "./label-layout.ts";

const AREA = { left: 0, top: 0, right: 300, bottom: 200, fontSize: 10, distance: 5, textWidth: (t: string) => t.length * 7 };
const node = (x: number, y: number, size: number, text = "STOCK"): LabelledNode => ({ x, y, size, text });

describe("where the network's labels go", () => {
  test("on the right where there is room, on the left at the right edge", () => {
    expect(placeLabels([node(50, 100, 10), node(290, 100, 10)], AREA)).toEqual(["right", "left"]);
  });

  test("the larger node takes its side first; the smaller one moves aside rather than overlap", () => {
    // Two nodes side by side: the small one's label would cover the large one on its right.
    const sides = placeLabels([node(100, 100, 6), node(125, 100, 20)], AREA);
    expect(sides).toEqual(["left", "right"]);
  });

  test("a hub ringed by small leaves is named across a leaf; the leaves get what room is left, or none", () => {
    const leaves = Array.from({ length: 8 }, (_, i) =>
      node(150 + 22 * Math.cos((i * Math.PI) / 4), 100 + 22 * Math.sin((i * Math.PI) / 4), 6, `L${i}`),
    );
    const nodes = [node(150, 100, 24, "HUB"), ...leaves];
    const sides = placeLabels(nodes, AREA);
    expect(sides[0]).not.toBeNull();
    const shown = nodes.flatMap((n, i) => (sides[i] ? [labelRect(n, sides[i]!, AREA.textWidth(n.text), AREA)] : []));
    for (const a of shown) for (const b of shown) if (a !== b) expect(overlaps(a, b)).toBe(false);
  });

  test("a label that fits nowhere is left for the hover", () => {
    expect(placeLabels([node(150, 100, 10, "X".repeat(60))], AREA)).toEqual([null]);
  });
});
