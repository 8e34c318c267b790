/**
 * The ECharts option of the correlation network: node size by a chosen metric, colour by
 * community (one legend entry each), edge width and opacity by |ρ|, details on hover.
 */
import { metricLabel } from "./format.ts";
import type { NetworkModel } from "./network-data.ts";
import { forceLayout } from "./force-layout.ts";
import { communityColour, communityName } from "./palette.ts";
import { edgeTooltip, nodeTooltip } from "./tooltips.ts";

const MIN_SIZE = 7;
const MAX_SIZE = 34;
/** Node sizes were chosen for a drawing area about this wide (px); smaller ones scale them down. */
const TUNED_WIDTH = 660;

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
  width: number;
  height: number;
}

export function graphOption(model: NetworkModel, metric: string, opts: GraphViewport) {
  const scale = Math.min(1.2, Math.max(0.5, opts.width / TUNED_WIDTH));
  const narrow = opts.width < 480;
  const box = { top: narrow ? 64 : 44, bottom: 12, left: 16, right: narrow ? 40 : 64 };
  const ids = [...new Set(model.stocks.map((s) => s.community).filter((c): c is number => c !== null))].sort((a, b) => a - b);
  const counts = new Map<number, number>();
  for (const s of model.stocks) if (s.community !== null) counts.set(s.community, (counts.get(s.community) ?? 0) + 1);
  const categoryIndex = new Map(ids.map((c, i) => [c, i]));
  const categories = ids.map((c) => ({
    name: `${communityName(c)} · ${counts.get(c)}`,
    itemStyle: { color: communityColour(c) },
  }));
  const inGraph = new Set(Object.keys(model.graph.communities ?? {}));
  const stocks = inGraph.size ? model.stocks.filter((s) => inGraph.has(s.symbol)) : model.stocks;
  const sizes = nodeSizes(
    stocks.map((s) => s.values[metric] ?? null),
    scale,
  );
  const index = new Map(stocks.map((s, i) => [s.symbol, i]));
  const edgeList = (model.graph.edge_list ?? []).filter((e) => index.has(e.source) && index.has(e.target));
  const layout = forceLayout(
    stocks.length,
    edgeList.map((e) => ({ source: index.get(e.source)!, target: index.get(e.target)!, weight: e.weight })),
    stocks.map((s) => s.community),
    Math.max(100, opts.width - box.left - box.right),
    Math.max(100, opts.height - box.top - box.bottom),
  );
  const nodes = stocks.map((s, i) => ({
    id: s.symbol,
    name: s.symbol,
    symbolSize: sizes[i],
    category: s.community === null ? undefined : categoryIndex.get(s.community),
    value: s.values[metric],
    community: s.community,
    values: s.values,
    x: layout[i].x,
    y: layout[i].y,
  }));
  const edges = edgeList.map((e) => ({
    source: e.source,
    target: e.target,
    value: e.weight,
    corr: e.corr,
    lineStyle: { width: 0.6 + 3.4 * e.weight, opacity: 0.18 + 0.72 * e.weight },
  }));
  return {
    animationDurationUpdate: 300,
    legend: {
      data: categories.map((c) => c.name),
      top: 0,
      left: 0,
      right: 0,
      icon: "circle",
      itemWidth: 10,
      itemHeight: 10,
      itemGap: narrow ? 6 : 12,
      textStyle: { color: "#2b3340", fontSize: narrow ? 10 : 12 },
    },
    tooltip: {
      className: "gs-tooltip",
      confine: true,
      formatter: (p: { dataType: string; data: any }) =>
        p.dataType === "edge"
          ? edgeTooltip(p.data.source, p.data.target, p.data.corr)
          : nodeTooltip(p.data.name, p.data.community, p.data.values),
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
        ...box,
        itemStyle: { borderColor: "#ffffff", borderWidth: 1 },
        lineStyle: { color: "#4a5463", curveness: 0 },
        label: { show: true, position: "right", fontSize: narrow ? 9 : 10, color: "#2b3340" },
        labelLayout: { hideOverlap: true },
        emphasis: { focus: "adjacency", lineStyle: { width: 4 }, label: { fontWeight: "bold" } },
      },
    ],
  };
}
