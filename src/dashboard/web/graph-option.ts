/**
 * The ECharts option of the correlation network: node size by a chosen metric, colour by
 * community or by sector (one legend entry each, colour-groups.ts), edge width by |ρ| and opacity by |ρ| or,
 * with bootstrap, by the edge's reliability; details on hover.
 */
import { metricLabel } from "./format.ts";
import type { NetworkModel } from "./network-data.ts";
import { forceLayout, type Point } from "./force-layout.ts";
import { labelPlacement, placeLabels } from "./label-layout.ts";
import { type ColourBy, colourGroups } from "./colour-groups.ts";
import { edgeTooltip, nodeTooltip } from "./tooltips.ts";

const MIN_SIZE = 7;
const MAX_SIZE = 34;
/** Node sizes were chosen for a drawing area about this wide (px); smaller ones scale them down. */
const TUNED_WIDTH = 660;
/** ECharts' gap (px) between a node and its label. */
const LABEL_GAP = 5;
/** Clear space (px) between a node or label and the canvas edge. */
const MARGIN = 4;

/**
 * Estimated width (px) of text in sans-serif where nothing measures it: 0.8 em a character (tickers
 * are capitals; W is 0.94 em, most are under 0.72). The page measures with the canvas instead.
 */
function estimateWidth(text: string, fontSize: number): number {
  return text.length * fontSize * 0.8;
}

/** Estimated height (px) of the legend across the top, wrapped to `width` as ECharts wraps it. */
function legendHeight(names: string[], width: number, fontSize: number, gap: number): number {
  if (names.length === 0) return 0;
  const padding = 5; // ECharts' legend padding on each side
  let rows = 1;
  let x = 0;
  for (const name of names) {
    const item = 10 + 5 + name.length * fontSize * 0.6; // icon, its gap, the text
    if (x > 0 && x + item > width - 2 * padding) {
      rows++;
      x = 0;
    }
    x += item + gap;
  }
  return 2 * padding + rows * (fontSize + 6) + (rows - 1) * gap;
}

/** Whether the edges are drawn by their bootstrap reliability: every edge of the answer carries one. */
export function byReliability(model: NetworkModel): boolean {
  const list = model.graph.edge_list ?? [];
  return list.length > 0 && list.every((e) => typeof e.reliability === "number");
}

/** An edge's opacity from its reliability: faint (0.08) when no resample holds it, nearly solid (0.95) when all do. */
export function reliabilityOpacity(reliability: number): number {
  return 0.08 + 0.87 * Math.min(1, Math.max(0, reliability));
}

/** Symbol sizes (px) of a metric's values, from MIN_SIZE to MAX_SIZE times `scale` (null → smallest). */
export function nodeSizes(values: (number | null)[], scale = 1): number[] {
  const min = Math.max(4, MIN_SIZE * scale);
  const max = Math.max(14, MAX_SIZE * scale);
  return rawSizes(values).map((t) => (t === null ? min : min + (max - min) * t));
}

/** Each value's place between the smallest and largest, square-rooted (area ∝ value); null stays null. */
function rawSizes(values: (number | null)[]): (number | null)[] {
  const known = values.filter((v): v is number => v !== null && Number.isFinite(v));
  const lo = known.length ? Math.min(...known) : 0;
  const hi = known.length ? Math.max(...known) : 0;
  return values.map((v) => {
    if (v === null || !Number.isFinite(v)) return null;
    return hi === lo ? 0.5 : Math.sqrt((v - lo) / (hi - lo));
  });
}

export interface GraphViewport {
  /** Pan and zoom with the mouse (off on touch screens, where it would trap page scrolling). */
  roam: boolean;
  /** The entry and update transitions (off when the user prefers reduced motion; the other charts have none). */
  animate: boolean;
  width: number;
  height: number;
  /** What the colours stand for (colour-groups.ts); communities when not given. */
  colourBy?: ColourBy;
  /** Width (px) of a label's text in the chart's font; an estimate when not given. */
  textWidth?: (text: string, fontSize: number) => number;
}

/**
 * The option for a canvas of `opts.width` × `opts.height`. The layout is computed in pixels and
 * drawn at one canvas pixel per layout pixel: ECharts stretches a layout to fill its box, nodes
 * included, which drew ellipses when the two proportions differed (few stocks, a phone). A margin
 * of the largest node's radius keeps nodes in. Labels go where they fit (label-layout.ts): the
 * largest nodes first, none over another label or node; the rest show on hover.
 */
export function graphOption(model: NetworkModel, metric: string, opts: GraphViewport) {
  const scale = Math.min(1.2, Math.max(0.5, opts.width / TUNED_WIDTH));
  const narrow = opts.width < 480;
  const fontSize = narrow ? 9 : 10;
  const legendFont = narrow ? 10 : 12;
  const legendGap = narrow ? 6 : 12;
  const inGraph = new Set(Object.keys(model.graph.communities ?? {}));
  const stocks = inGraph.size ? model.stocks.filter((s) => inGraph.has(s.symbol)) : model.stocks;
  const { groups, groupOf } = colourGroups(opts.colourBy === "sector" ? stocks : model.stocks, opts.colourBy ?? "community");
  const categories = groups.map((g) => ({ name: `${g.name} · ${g.count}`, itemStyle: { color: g.colour } }));
  const sizes = nodeSizes(
    stocks.map((s) => s.values[metric] ?? null),
    scale,
  );
  const index = new Map(stocks.map((s, i) => [s.symbol, i]));
  const edgeList = (model.graph.edge_list ?? []).filter((e) => index.has(e.source) && index.has(e.target));
  // Node centres stay this far from the sides (the border is 1 px), and vertically from a label's half height too.
  const reach = Math.max(1, ...sizes) / 2 + 1 + MARGIN;
  const reachY = Math.max(reach, fontSize * 0.7 + MARGIN);
  const legend = legendHeight(
    categories.map((c) => c.name),
    opts.width,
    legendFont,
    legendGap,
  );
  const box = { left: reach, right: reach, top: legend + reachY, bottom: reachY };
  const inner = { width: Math.max(100, opts.width - box.left - box.right), height: Math.max(100, opts.height - box.top - box.bottom) };
  const layout = fitToBox(
    forceLayout(
      stocks.length,
      edgeList.map((e) => ({ source: index.get(e.source)!, target: index.get(e.target)!, weight: e.weight })),
      stocks.map((s) => s.community),
      inner.width,
      inner.height,
    ),
    inner.width,
    inner.height,
  );
  const sides = placeLabels(
    stocks.map((s, i) => ({ x: box.left + layout[i].x, y: box.top + layout[i].y, size: sizes[i], text: s.symbol })),
    {
      left: MARGIN,
      top: legend,
      right: opts.width - MARGIN,
      bottom: opts.height - MARGIN,
      fontSize,
      distance: LABEL_GAP,
      textWidth: opts.textWidth ?? estimateWidth,
    },
  );
  const nodes = stocks.map((s, i) => {
    const side = sides[i];
    return {
      id: s.symbol,
      name: s.symbol,
      symbolSize: sizes[i],
      category: groupOf.get(s.symbol),
      value: s.values[metric],
      community: s.community,
      sector: s.sector ?? null,
      values: s.values,
      band: s.band ?? null,
      x: layout[i].x,
      y: layout[i].y,
      label: side ? { show: true, ...labelPlacement(side) } : { show: false },
    };
  });
  const reliable = byReliability(model);
  const edges = edgeList.map((e) => ({
    source: e.source,
    target: e.target,
    value: e.weight,
    corr: e.corr,
    reliability: e.reliability ?? null,
    lineStyle: { width: 0.6 + 3.4 * e.weight, opacity: reliable ? reliabilityOpacity(e.reliability ?? 0) : 0.18 + 0.72 * e.weight },
  }));
  return {
    animation: opts.animate,
    animationDurationUpdate: 300,
    legend: {
      data: categories.map((c) => c.name),
      top: 0,
      left: 0,
      right: 0,
      icon: "circle",
      itemWidth: 10,
      itemHeight: 10,
      itemGap: legendGap,
      textStyle: { color: "#2b3340", fontSize: legendFont },
    },
    tooltip: {
      className: "gs-tooltip",
      confine: true,
      formatter: (p: { dataType: string; data: any }) =>
        p.dataType === "edge"
          ? edgeTooltip(p.data.source, p.data.target, p.data.corr, p.data.reliability)
          : nodeTooltip(p.data.name, p.data.community, p.data.values, p.data.sector, p.data.band),
    },
    series: [
      {
        type: "graph",
        name: metricLabel(metric),
        layout: "none",
        roam: opts.roam,
        draggable: true,
        categories,
        data: nodes,
        links: edges,
        ...viewRect(layout, box),
        // Exactly the layout's own proportions already; this keeps them if a rounding differs.
        preserveAspect: true,
        itemStyle: { borderColor: "#ffffff", borderWidth: 1 },
        lineStyle: { color: "#4a5463", curveness: 0 },
        label: { show: true, position: "right", distance: LABEL_GAP, fontSize, fontFamily: "sans-serif", color: "#2b3340" },
        emphasis: { focus: "adjacency", lineStyle: { width: 4 }, label: { show: true, fontWeight: "bold" } },
      },
    ],
  };
}

/** The box the points span: its corner and its width and height. */
function extent(points: Point[]): { minX: number; minY: number; spanX: number; spanY: number } {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  return { minX, minY, spanX: Math.max(...xs) - minX, spanY: Math.max(...ys) - minY };
}

/** How much more the layout may be stretched one way than the other to fill a box of other proportions. */
const MAX_STRETCH = 1.5;

/**
 * The points scaled to fill the box, centred where they do not. Only positions stretch (nodes are
 * drawn in pixels, round), and at most MAX_STRETCH unevenly, so a near-straight chain stays one.
 */
function fitToBox(points: Point[], width: number, height: number): Point[] {
  const { minX, minY, spanX, spanY } = extent(points);
  const fitX = spanX > 0 ? width / spanX : Infinity;
  const fitY = spanY > 0 ? height / spanY : Infinity;
  const even = Math.min(fitX, fitY);
  if (!Number.isFinite(even)) return points.map(() => ({ x: width / 2, y: height / 2 }));
  const kx = Math.min(fitX, even * MAX_STRETCH);
  const ky = Math.min(fitY, even * MAX_STRETCH);
  const dx = (width - spanX * kx) / 2;
  const dy = (height - spanY * ky) / 2;
  return points.map((p) => ({ x: dx + (p.x - minX) * kx, y: dy + (p.y - minY) * ky }));
}

/**
 * Where ECharts draws the layout: the box its points span, offset by the margins, so one layout
 * pixel is one canvas pixel. A span of 0 (one node, or all in a line) is 2 wide, as ECharts pads it.
 */
function viewRect(points: Point[], box: { left: number; top: number }) {
  const { minX, minY, spanX, spanY } = extent(points);
  return {
    left: box.left + minX - (spanX === 0 ? 1 : 0),
    top: box.top + minY - (spanY === 0 ? 1 : 0),
    width: spanX === 0 ? 2 : spanX,
    height: spanY === 0 ? 2 : spanY,
  };
}
