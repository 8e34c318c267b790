import { describe, expect, test } from "bun:test";
import { forceLayout } from "./force-layout.ts";
import { nodeSizes } from "./graph-option.ts";

describe("node sizes and layout", () => {
  test("sizes grow with the metric, the largest at the top of the range, null the smallest", () => {
    const [a, b, c, d] = nodeSizes([0, 1, null, 0.25]);
    expect(b).toBe(34);
    expect(a).toBe(7);
    expect(c).toBe(7);
    expect(d).toBeCloseTo(7 + 27 * 0.5, 9);
  });

  test("the layout is deterministic, inside its box, and keeps strongly linked nodes closer than unlinked ones", () => {
    const n = 30;
    const edges = Array.from({ length: n - 1 }, (_, i) => ({ source: i, target: i + 1, weight: 0.9 }));
    const groups = Array.from({ length: n }, (_, i) => Math.floor(i / 10));
    const a = forceLayout(n, edges, groups, 600, 400);
    expect(forceLayout(n, edges, groups, 600, 400)).toEqual(a);
    for (const p of a) {
      expect(p.x).toBeGreaterThanOrEqual(0);
      expect(p.x).toBeLessThanOrEqual(600);
      expect(p.y).toBeGreaterThanOrEqual(0);
      expect(p.y).toBeLessThanOrEqual(400);
    }
    const dist = (i: number, j: number) => Math.hypot(a[i].x - a[j].x, a[i].y - a[j].y);
    expect(dist(0, 1)).toBeLessThan(dist(0, 20));
  });
});
