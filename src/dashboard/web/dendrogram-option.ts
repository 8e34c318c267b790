/**
 * The ECharts option of the dendrogram, on its side: the hierarchy's leaves down the left in its
 * leaf order (one row each, 0, 1, …), merge heights along x, and each merge a ⊐-shaped polyline
 * from its two children (at their row and height) out to its own height. A merge sits halfway
 * between its children, as in scipy's dendrogram. With flat clusters, the merges inside one
 * cluster take that cluster's colour. The chart is as tall as its leaves need (`dendrogramHeight`):
 * 50 leaves across a 390 px panel were 8 px apart, their names turned on end.
 */
import { isoDate } from "./format.ts";
import type { HierarchyData } from "./network-data.ts";
import { lineColour } from "./palette.ts";

const LINKS = "#8a8f98";

export interface Segment {
  /** The merge's row in Z (0-based). */
  merge: number;
  /** [leaf position, height] of the ⊓: left child's foot, left shoulder, right shoulder, right child's foot. */
  points: [number, number][];
  height: number;
  size: number;
  /** Flat cluster label when every leaf under the merge is in the same cluster, else null. */
  cluster: number | null;
}

/**
 * The ⊓ of every merge. A height that is not finite (null in the answer) is drawn just above the
 * highest finite one, so the tree stays whole.
 */
export function dendrogramSegments(h: HierarchyData): Segment[] {
  const n = h.leaves.length;
  const order = new Map(h.leaf_order.map((s, i) => [s, i]));
  const finite = h.merges.map((m) => m[2]).filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  const top = finite.length ? Math.max(...finite) : 0;
  const x: number[] = h.leaves.map((s, i) => order.get(s) ?? i);
  const y: number[] = h.leaves.map(() => 0);
  const label: (number | null)[] = h.leaves.map((s) => h.clusters?.[s] ?? null);
  const segments: Segment[] = [];
  h.merges.forEach(([left, right, height, size], r) => {
    const ht = typeof height === "number" && Number.isFinite(height) ? height : top > 0 ? top * 1.05 : 1;
    const xl = x[left] ?? 0;
    const xr = x[right] ?? 0;
    const yl = y[left] ?? 0;
    const yr = y[right] ?? 0;
    const cl = label[left] ?? null;
    const cluster = cl !== null && cl === (label[right] ?? null) ? cl : null;
    x[n + r] = (xl + xr) / 2;
    y[n + r] = ht;
    label[n + r] = cluster;
    segments.push({
      merge: r,
      points: [
        [xl, yl],
        [xl, ht],
        [xr, ht],
        [xr, yr],
      ],
      height: ht,
      size,
      cluster,
    });
  });
  return segments;
}

/** The colour of a merge: its flat cluster's (labels 1…), or grey above the cut / without clusters. */
export function clusterColour(cluster: number | null): string {
  return cluster === null ? LINKS : lineColour(cluster - 1);
}

/** Pixels per leaf: an 11 px name on each row with room between. */
export const LEAF_ROW = 16;
/** The grid's top (the distance axis and its name) and bottom margins, in pixels. */
const TOP = 44;
const BOTTOM = 8;

/** The chart's height for `leaves` leaves: one row each, and never less than a panel's worth. */
export function dendrogramHeight(leaves: number): number {
  return Math.max(240, TOP + BOTTOM + leaves * LEAF_ROW);
}

export function dendrogramOption(h: HierarchyData) {
  const n = h.leaf_order.length;
  const segments = dendrogramSegments(h);
  return {
    animation: false,
    grid: { left: 8, right: 20, top: TOP, bottom: BOTTOM, containLabel: true },
    tooltip: {
      trigger: "item",
      className: "gs-tooltip",
      confine: true,
      formatter: (p: { seriesIndex: number }) => {
        const s = segments[p.seriesIndex];
        if (!s) return "";
        const cluster = s.cluster !== null ? `<div class="tt-sub">Cluster ${s.cluster}</div>` : "";
        return `<div class="tt-title">Merge ${s.merge + 1}</div>${cluster}<div>${s.size} stocks at height ${s.height.toFixed(4)}</div>`;
      },
    },
    yAxis: {
      type: "value",
      min: -0.5,
      max: Math.max(0.5, n - 0.5),
      inverse: true,
      interval: 1,
      splitLine: { show: false },
      axisTick: { show: false },
      axisLine: { lineStyle: { color: "#c9ced6" } },
      // One label beside each leaf (the ticks of a value axis would fall between them).
      axisLabel: {
        customValues: h.leaf_order.map((_, i) => i),
        color: "#2b3340",
        fontSize: 11,
        hideOverlap: false,
        formatter: (v: number) => (Number.isInteger(v) ? (h.leaf_order[v] ?? "") : ""),
      },
    },
    // Distances along the top, where they are in view before a tall tree is scrolled.
    xAxis: {
      type: "value",
      position: "top",
      name: `${h.distance} distance`,
      nameLocation: "middle",
      nameGap: 24,
      nameTextStyle: { color: "#5b6472" },
      min: 0,
      axisLabel: { color: "#5b6472" },
      splitLine: { lineStyle: { color: "#eceef2" } },
    },
    series: segments.map((s) => {
      const colour = clusterColour(s.cluster);
      return {
        type: "line",
        name: `Merge ${s.merge + 1}`,
        // A segment's points are (leaf position, height): on its side, x is the height.
        data: s.points.map(([position, height]) => [height, position]),
        showSymbol: false,
        symbol: "none",
        silent: false,
        triggerLineEvent: true,
        lineStyle: { width: 1.5, color: colour },
        itemStyle: { color: colour },
        emphasis: { focus: "self", lineStyle: { width: 3 } },
      };
    }),
  };
}

/** The caption under the dendrogram (plain text: set as textContent). */
export function dendrogramCaption(h: HierarchyData): string {
  const clusters = h.n_clusters !== undefined ? ` · ${h.n_clusters} flat clusters` : "";
  return `As of ${isoDate(h.asof_date)} · ${h.method} linkage on the ${h.distance} distance · ${h.leaves.length} stocks${clusters}`;
}
