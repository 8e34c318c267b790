import { describe, expect, test } from "bun:test";
import { GraphChart } from "echarts/charts";
import { LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { SVGRenderer } from "echarts/renderers";
import { platformApi } from "zrender/lib/core/platform.js";
import { forceLayout } from "./force-layout.ts";
import { byReliability, graphOption, nodeSizes, reliabilityOpacity } from "./graph-option.ts";
import { overlaps, type Rect } from "./label-layout.ts";
import type { NetworkModel } from "./network-data.ts";

// The option is checked as ECharts draws it (server-side, SVG): what counts is where the shapes land.
echarts.use([GraphChart, LegendComponent, TooltipComponent, SVGRenderer]); // as echarts-setup.ts: no label-overlap layout
/** Text measured as ECharts measures it here (the page passes the canvas's measure). */
const measured = (text: string, fontSize: number) => platformApi.measureText(text, `${fontSize}px sans-serif`).width;

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
    chart.setOption(graphOption(model, "degree_strength", { roam: false, animate: false, width, height, textWidth: measured }));
    // Drawn once, so each label's box has its alignment (before, a label on the left was measured as if on the right).
    chart.renderToSVGString();
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
        // A label is left off only where it would cover another label or a node; up to four nodes leave room for all.
        const shown = drawn.filter((d) => d.label).length;
        if (drawn.length <= 4) expect(shown).toBe(drawn.length);
        else expect(shown).toBeGreaterThanOrEqual(drawn.length * 0.6);
      });
    }
  }
});

/**
 * Fifty stocks in eight tight communities, as NIFTY-50's minimum spanning tree draws them: each a
 * hub with its members strongly linked (so they sit close), the hubs joined weakly, `extra` more
 * edges inside each community (a k-nearest-neighbour graph is denser than a tree).
 */
function clusters(extra: number): NetworkModel {
  const symbols = [
    ...["HDFCBANK", "ICICIBANK", "AXISBANK", "KOTAKBANK", "SBIN", "INDUSINDBK", "BAJFINANCE"],
    ...["INFY", "TCS", "HCLTECH", "WIPRO", "TECHM", "LTIM"],
    ...["SUNPHARMA", "CIPLA", "DRREDDY", "APOLLOHOSP", "DIVISLAB", "ZYDUSLIFE"],
    ...["MARUTI", "M&M", "EICHERMOT", "BAJAJ-AUTO", "HEROMOTOCO", "TATAMOTORS"],
    ...["TATASTEEL", "HINDALCO", "JSWSTEEL", "COALINDIA", "ONGC", "NTPC", "POWERGRID"],
    ...["HINDUNILVR", "ITC", "NESTLEIND", "BRITANNIA", "TATACONSUM", "ASIANPAINT"],
    ...["RELIANCE", "ADANIENT", "ADANIPORTS", "LT", "ULTRACEMCO", "GRASIM"],
    ...["BHARTIARTL", "TITAN", "TRENT", "SHRIRAMFIN", "SBILIFE", "HDFCLIFE"],
  ];
  const community = symbols.map((_, i) => Math.min(7, Math.floor(i / 6.25)));
  const edge_list: { source: string; target: string; weight: number; corr: number }[] = [];
  const hubs: number[] = [];
  for (let c = 0; c < 8; c++) {
    const members = symbols.map((_, i) => i).filter((i) => community[i] === c);
    hubs.push(members[0]);
    members.slice(1).forEach((m, k) => {
      edge_list.push({ source: symbols[members[0]], target: symbols[m], weight: 0.85 + 0.02 * (k % 5), corr: 0.8 });
      for (let e = 1; e <= extra && k + 1 + e < members.length; e++) {
        edge_list.push({ source: symbols[m], target: symbols[members[k + 1 + e]], weight: 0.8, corr: 0.75 });
      }
    });
  }
  hubs.slice(1).forEach((h, k) => edge_list.push({ source: symbols[hubs[k]], target: symbols[h], weight: 0.3, corr: 0.4 }));
  const degree = symbols.map((s) => edge_list.filter((e) => e.source === s || e.target === s).reduce((a, e) => a + e.weight, 0));
  return {
    asof: "2025-09-30",
    metrics: ["degree_strength"],
    graph: {
      nodes: symbols.length,
      edges: edge_list.length,
      method: "mst",
      edge_list,
      communities: Object.fromEntries(symbols.map((s, i) => [s, community[i]])),
    },
    stocks: symbols.map((s, i) => ({ symbol: s, community: community[i], values: { degree_strength: degree[i] } })),
    rolling: null,
  };
}

describe("labels in dense clusters (#42 item 7): only where they fit, never over another label or node", () => {
  /** Whether a label's box crosses a node's disc (its box is the disc and its 1 px border). */
  const onDisc = (r: Rect, d: Drawn) => {
    const cx = d.node.x + d.node.width / 2;
    const cy = d.node.y + d.node.height / 2;
    const dx = cx - Math.max(r.x, Math.min(cx, r.x + r.width));
    const dy = cy - Math.max(r.y, Math.min(cy, r.y + r.height));
    return Math.hypot(dx, dy) < d.node.width / 2;
  };
  for (const [what, model] of [
    ["fifty in eight communities, a tree", clusters(0)],
    ["fifty in eight communities, denser", clusters(2)],
  ] as const) {
    for (const [width, height] of [
      [655, 560],
      [319, 460],
    ]) {
      test(`${what} at ${width} × ${height}`, () => {
        const drawn = draw(model, width, height);
        const labelled = drawn.filter((d) => d.label);
        for (const a of labelled) {
          expect(inside(a.label!, width, height), `${a.name}: the label leaves the canvas`).toBe(true);
          for (const b of labelled) {
            if (a !== b) expect(overlaps(a.label!, b.label!), `${a.name}'s label over ${b.name}'s`).toBe(false);
          }
          for (const b of drawn) {
            // Only a node under half the labelled one's size may lie under its label (a hub ringed by leaves).
            if (a !== b && b.node.width >= a.node.width / 2)
              expect(onDisc(a.label!, b), `${a.name}'s label over the node ${b.name}`).toBe(false);
          }
        }
        // The largest node is named; the rest where there is room, a good share of them.
        const sizes = drawn.map((d) => d.node.width);
        expect(drawn[sizes.indexOf(Math.max(...sizes))].label).not.toBeNull();
        expect(labelled.length).toBeGreaterThanOrEqual(drawn.length * (width > 400 ? 0.5 : 0.3));
        // The page's hover shows every name: a node without a label has one in its emphasis.
        const option = graphOption(model, "degree_strength", { roam: false, animate: false, width, height, textWidth: measured });
        expect(option.series[0].emphasis.label.show).toBe(true);
      });
    }
  }
});

describe("colour by sector (colour-groups.ts)", () => {
  test("the categories are the sectors and a grey 'no sector', each node in its own; the layout does not move", () => {
    const model = network(["AAA", "BBB", "CCC", "DDD"], "chain", [0, 0, 1, 1]);
    model.stocks = model.stocks.map((s, i) => ({ ...s, sector: ["it", "banks", "it", null][i] }));
    const opts = { roam: false, animate: false, width: 600, height: 400 };
    const byCommunity = graphOption(model, "degree_strength", opts);
    const bySector = graphOption(model, "degree_strength", { ...opts, colourBy: "sector" });
    expect(byCommunity.series[0].categories.map((c) => c.name)).toEqual(["Community 0 · 2", "Community 1 · 2"]);
    expect(bySector.series[0].categories).toEqual([
      { name: "banks · 1", itemStyle: { color: "#4e79a7" } },
      { name: "it · 2", itemStyle: { color: "#f28e2b" } },
      { name: "no sector · 1", itemStyle: { color: "#8a8f98" } },
    ]);
    expect(bySector.legend.data).toEqual(["banks · 1", "it · 2", "no sector · 1"]);
    expect(bySector.series[0].data.map((n) => [n.name, n.category])).toEqual([
      ["AAA", 1],
      ["BBB", 0],
      ["CCC", 1],
      ["DDD", 2],
    ]);
    expect(bySector.series[0].data.map((n) => [n.x, n.y])).toEqual(byCommunity.series[0].data.map((n) => [n.x, n.y]));
  });
});

describe("edge opacity by bootstrap reliability", () => {
  const symbols = ["A", "B", "C", "D", "E"];
  const reliabilities = [1, 0.5, 0.1, 0];
  function withReliability(): NetworkModel {
    const m = network(symbols, "chain");
    const edge_list = m.graph.edge_list!.map((e, i) => ({ ...e, reliability: reliabilities[i] }));
    return { ...m, graph: { ...m.graph, edge_list } };
  }
  const opts = { roam: false, animate: false, width: 600, height: 400 };
  const edgesOf = (m: NetworkModel) => graphOption(m, "degree_strength", opts).series[0].links;

  test("without reliabilities the opacity follows |ρ|, with them the reliability alone", () => {
    expect(byReliability(network(symbols, "chain"))).toBe(false);
    const plain = edgesOf(network(symbols, "chain")).map((e) => e.lineStyle.opacity);
    expect(plain).toEqual(network(symbols, "chain").graph.edge_list!.map((e) => 0.18 + 0.72 * e.weight));
    const m = withReliability();
    expect(byReliability(m)).toBe(true);
    const drawn = edgesOf(m);
    expect(drawn.map((e) => e.lineStyle.opacity)).toEqual(reliabilities.map(reliabilityOpacity));
    // The width still says |ρ|.
    expect(drawn.map((e) => e.lineStyle.width)).toEqual(m.graph.edge_list!.map((e) => 0.6 + 3.4 * e.weight));
    // Never quite gone (an edge of the answer's graph), never darker than solid.
    expect(reliabilityOpacity(0)).toBeGreaterThan(0);
    expect(reliabilityOpacity(1)).toBeLessThanOrEqual(1);
    expect(reliabilityOpacity(0.5)).toBeLessThan(reliabilityOpacity(1));
  });

  test("ECharts draws each edge at its reliability's opacity, and its tooltip gives the share", () => {
    const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width: 600, height: 400 });
    try {
      chart.setOption(graphOption(withReliability(), "degree_strength", opts));
      const svg = chart.renderToSVGString();
      const drawn = [...svg.matchAll(/<path [^>]*stroke="#4a5463"[^>]*>/g)].map((m) => Number(/opacity="([\d.]+)"/.exec(m[0])?.[1] ?? 1));
      const wanted = reliabilities.map(reliabilityOpacity).toSorted((x, y) => x - y);
      expect(drawn.toSorted((x, y) => x - y)).toEqual(wanted.map((v) => expect.closeTo(v, 3)));
    } finally {
      chart.dispose();
    }
    const option = graphOption(withReliability(), "degree_strength", opts);
    const tip = option.tooltip.formatter({ dataType: "edge", data: option.series[0].links[1] });
    expect(tip).toContain("reliability 50% of resamples");
  });

  test("a node's tooltip gives each metric's band beside its value", () => {
    const m = withReliability();
    const stocks = m.stocks.map((s) => ({ ...s, band: { p05: { degree_strength: 0.25 }, p95: { degree_strength: 2.5 } } }));
    const option = graphOption({ ...m, stocks }, "degree_strength", opts);
    const tip = option.tooltip.formatter({ dataType: "node", data: option.series[0].data[0] });
    expect(tip).toContain("(p05–p95 0.2500–2.5000)");
    const plain = graphOption(m, "degree_strength", opts);
    expect(plain.tooltip.formatter({ dataType: "node", data: plain.series[0].data[0] })).not.toContain("p05");
  });
});
