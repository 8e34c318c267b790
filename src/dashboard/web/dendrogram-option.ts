/**
 * The ECharts option of the dendrogram: the hierarchy's leaves along the x axis in its leaf order
 * (x = 0, 1, …), merge heights on y, and each merge a ⊓-shaped polyline from its two children (at
 * their x and height) up to its own height. A merge sits halfway between its children, as in
 * scipy's dendrogram. With flat clusters, the merges inside one cluster take that cluster's colour.
 */
import { isoDate } from "./format.ts";
import type { HierarchyData } from "./network-data.ts";
import { lineColour } from "./palette.ts";

const LINKS = "#8a8f98";

export interface Segment {
  /** The merge's row in Z (0-based). */
  merge: number;
  /** [x, y] of the ⊓: left child's foot, left shoulder, right shoulder, right child's foot. */
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

export function dendrogramOption(h: HierarchyData, width: number) {
  const n = h.leaf_order.length;
  const segments = dendrogramSegments(h);
  // Labels turn on their side when they no longer fit across the chart.
  const crowded = n * 44 > width;
  const fontSize = n > 30 ? 9 : n > 15 ? 10 : 11;
  return {
    animation: false,
    grid: { left: 8, right: 16, top: 28, bottom: 4, containLabel: true },
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
    xAxis: {
      type: "value",
      min: -0.5,
      max: Math.max(0.5, n - 0.5),
      interval: 1,
      splitLine: { show: false },
      axisTick: { show: false },
      axisLine: { lineStyle: { color: "#c9ced6" } },
      // One label under each leaf (the ticks of a value axis would fall between them).
      axisLabel: {
        customValues: h.leaf_order.map((_, i) => i),
        color: "#2b3340",
        fontSize,
        rotate: crowded ? 90 : 0,
        hideOverlap: false,
        formatter: (v: number) => (Number.isInteger(v) ? (h.leaf_order[v] ?? "") : ""),
      },
    },
    yAxis: {
      type: "value",
      name: `${h.distance} distance`,
      nameTextStyle: { color: "#5b6472", align: "left" },
      min: 0,
      axisLabel: { color: "#5b6472" },
      splitLine: { lineStyle: { color: "#eceef2" } },
    },
    series: segments.map((s) => {
      const colour = clusterColour(s.cluster);
      return {
        type: "line",
        name: `Merge ${s.merge + 1}`,
        data: s.points,
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
