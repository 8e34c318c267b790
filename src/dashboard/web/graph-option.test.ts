import { describe, expect, test } from "bun:test";
import { GraphChart } from "echarts/charts";
import { LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { LabelLayout } from "echarts/features";
import { SVGRenderer } from "echarts/renderers";
import { forceLayout } from "./force-layout.ts";
import { graphOption, nodeSizes } from "./graph-option.ts";
import type { NetworkModel } from "./network-data.ts";

// The option is checked as ECharts draws it (server-side, SVG): what counts is where the shapes land.
echarts.use([GraphChart, LegendComponent, TooltipComponent, LabelLayout, SVGRenderer]);

/** A network of `symbols`, each joined to the next (a chain) or all to the first (a star). */
function network(symbols: string[], shape: "chain" | "star", communities = symbols.map(() => 0)): NetworkModel {
  const edge_list = symbols.slice(1).map((s, i) => ({
    source: shape === "star" ? symbols[0] : symbols[i],
    target: s,
    weight: 0.3 + (0.6 * i) / symbols.length,
    corr: 0.5,
  }));
  return {
    asof: "2025-09-30",
    metrics: ["degree_strength"],
    graph: {
      nodes: symbols.length,
      edges: edge_list.length,
      method: "mst",
      edge_list,
      communities: Object.fromEntries(symbols.map((s, i) => [s, communities[i]])),
    },
    stocks: symbols.map((s, i) => ({ symbol: s, community: communities[i], values: { degree_strength: (i * 7) % 5 } })),
    rolling: null,
  };
}

interface Drawn {
  name: string;
  node: { x: number; y: number; width: number; height: number };
  label: { x: number; y: number; width: number; height: number } | null;
}

/** Each node's drawn shape and label, in canvas pixels, as ECharts lays them out at this size. */
function draw(model: NetworkModel, width: number, height: number): Drawn[] {
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width, height });
  try {
    chart.setOption(graphOption(model, "degree_strength", { roam: false, animate: false, width, height }));
    const data = (chart as any).getModel().getSeriesByIndex(0).getData();
    const out: Drawn[] = [];
    for (let i = 0; i < data.count(); i++) {
      const symbol = data.getItemGraphicEl(i).childAt(0);
      const node = symbol.getBoundingRect().clone();
      node.applyTransform(symbol.getComputedTransform());
      const text = symbol.getTextContent();
      let label = null;
      if (text && !text.ignore && !text.invisible) {
        label = text.getBoundingRect().clone();
        label.applyTransform(text.getComputedTransform());
      }
      out.push({ name: data.getName(i), node, label });
    }
    return out;
  } finally {
    chart.dispose();
  }
}

const inside = (r: { x: number; y: number; width: number; height: number }, width: number, height: number) =>
  r.x >= 0 && r.y >= 0 && r.x + r.width <= width && r.y + r.height <= height;

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

test("the network moves only for a user who has not asked for reduced motion", () => {
  const model = network(["ALPHABANK", "BETABANK", "GAMMABANK"], "chain");
  const moving = graphOption(model, "degree_strength", { roam: true, animate: true, width: 655, height: 560 });
  const still = graphOption(model, "degree_strength", { roam: true, animate: false, width: 655, height: 560 });
  expect(moving.animation).toBe(true);
  expect(still.animation).toBe(false);
  // Nothing else differs: the same picture, drawn at once.
  expect({ ...still, animation: true, tooltip: undefined }).toEqual({ ...moving, tooltip: undefined });
});

describe("the network as drawn (docs/dashboard.md): round nodes, every label inside the canvas", () => {
  const networks: [string, NetworkModel][] = [
    ["one stock", network(["BAJAJ-AUTO"], "chain")],
    ["two stocks", network(["HINDUNILVR", "BAJFINANCE"], "chain")],
    ["a star of four", network(["ALPHABANK", "BETABANK", "GAMMABANK", "CODEWAVE"], "star")],
    ["a chain of five", network(["TATASTEEL", "HINDALCO", "JSWSTEEL", "COALINDIA", "POWERGRID"], "chain", [0, 0, 0, 1, 1])],
    [
      "twelve in three communities",
      network(
        Array.from({ length: 12 }, (_, i) => `STOCK${String.fromCharCode(65 + i)}LONG`),
        "chain",
        Array.from({ length: 12 }, (_, i) => i % 3),
      ),
    ],
  ];
  // The graph panel's drawing area at a 1280 px window and at a 375 px phone.
  const sizes: [number, number][] = [
    [655, 560],
    [319, 460],
  ];
  for (const [what, model] of networks) {
    for (const [width, height] of sizes) {
      test(`${what} at ${width} × ${height}`, () => {
        const drawn = draw(model, width, height);
        expect(drawn.length).toBe(model.stocks.length);
        for (const d of drawn) {
          const where = `${d.name} ${JSON.stringify(d)}`;
          expect(Math.abs(d.node.width - d.node.height), `${where}: an ellipse`).toBeLessThan(0.5);
          expect(inside(d.node, width, height), `${where}: the node leaves the canvas`).toBe(true);
          if (d.label) expect(inside(d.label, width, height), `${where}: the label leaves the canvas`).toBe(true);
        }
        // ECharts hides a label only where it would overlap another; up to four nodes leave room for all.
        const shown = drawn.filter((d) => d.label).length;
        if (drawn.length <= 4) expect(shown).toBe(drawn.length);
        else expect(shown).toBeGreaterThanOrEqual(drawn.length * 0.6);
      });
    }
  }
});
