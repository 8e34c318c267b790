/**
 * Which node of the network gets its label, and where: the largest nodes first, each on the first
 * of eight places round it (right, left, the four corners, below, above) where the label stays
 * inside the drawing area and covers no label already placed and no other node; failing that, no
 * node of half its size or more (a hub ringed by small leaves is still named, across a leaf). A
 * node left without one shows it on hover. ECharts' own `hideOverlap` compares labels with labels only, and
 * only where they were put: labels lay across the nodes of a dense cluster, and none moved aside.
 */

export type LabelSide = "right" | "left" | "top-right" | "bottom-right" | "top-left" | "bottom-left" | "bottom" | "top";

export interface LabelledNode {
  /** Centre, in canvas pixels. */
  x: number;
  y: number;
  /** Symbol size (diameter) in pixels. */
  size: number;
  text: string;
}

export interface LabelArea {
  /** Where labels may go: left, top, right and bottom edges in canvas pixels. */
  left: number;
  top: number;
  right: number;
  bottom: number;
  fontSize: number;
  /** ECharts' gap between a node and its label. */
  distance: number;
  /** Width in pixels of `text` at `fontSize`, as the chart will draw it. */
  textWidth: (text: string, fontSize: number) => number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const SIDES: LabelSide[] = ["right", "left", "top-right", "bottom-right", "top-left", "bottom-left", "bottom", "top"];
/** Clear space (px) kept around a label. */
const PAD = 1;

/**
 * The box a label at `side` of `node` covers, as ECharts places it, padded: on a side, `distance`
 * past the node's edge; at a corner, from the corner of the node's box (its 1 px border included).
 */
export function labelRect(node: LabelledNode, side: LabelSide, width: number, area: LabelArea): Rect {
  const h = area.fontSize + 2;
  const reach = node.size / 2 + area.distance;
  const corner = node.size / 2 + 0.5;
  const right = side === "right" ? reach : side.endsWith("-right") ? corner : null;
  const left = side === "left" ? reach : side.endsWith("-left") ? corner : null;
  const below = side === "bottom" ? reach : side.startsWith("bottom-") ? corner : null;
  const above = side === "top" ? reach : side.startsWith("top-") ? corner : null;
  const x = right !== null ? node.x + right : left !== null ? node.x - left - width : node.x - width / 2;
  const y = below !== null ? node.y + below : above !== null ? node.y - above - h : node.y - h / 2;
  return { x: x - PAD, y: y - PAD, width: width + 2 * PAD, height: h + 2 * PAD };
}

/** The ECharts label settings that put a label at `side` (a corner: a point of the node's box, the text aligned away from it). */
export function labelPlacement(side: LabelSide) {
  if (!side.includes("-")) return { position: side };
  const [v, h] = side.split("-");
  return {
    position: [h === "right" ? "100%" : "0%", v === "bottom" ? "100%" : "0%"],
    align: h === "right" ? "left" : "right",
    verticalAlign: v === "bottom" ? "top" : "bottom",
  };
}

export function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Whether a node's disc (its white border included) touches the rectangle. */
function covers(node: LabelledNode, r: Rect): boolean {
  const radius = node.size / 2 + 1;
  const dx = node.x - Math.max(r.x, Math.min(node.x, r.x + r.width));
  const dy = node.y - Math.max(r.y, Math.min(node.y, r.y + r.height));
  return dx * dx + dy * dy < radius * radius;
}

/** Each node's label side, or null where no side is free (the label then shows on hover only). */
export function placeLabels(nodes: LabelledNode[], area: LabelArea): (LabelSide | null)[] {
  const out: (LabelSide | null)[] = nodes.map(() => null);
  const placed: Rect[] = [];
  const order = nodes.map((n, i) => ({ n, i })).sort((a, b) => b.n.size - a.n.size || a.i - b.i);
  for (const { n, i } of order) {
    const width = area.textWidth(n.text, area.fontSize);
    const free = (r: Rect, smallest: number) =>
      r.x >= area.left &&
      r.y >= area.top &&
      r.x + r.width <= area.right &&
      r.y + r.height <= area.bottom &&
      !placed.some((p) => overlaps(p, r)) &&
      !nodes.some((m, j) => j !== i && m.size >= smallest && covers(m, r));
    for (const smallest of [0, n.size / 2]) {
      const side = SIDES.find((s) => free(labelRect(n, s, width, area), smallest));
      if (!side) continue;
      out[i] = side;
      placed.push(labelRect(n, side, width, area));
      break;
    }
  }
  return out;
}
