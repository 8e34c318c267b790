/**
 * A deterministic force-directed layout (Fruchterman–Reingold) for the network picture. ECharts'
 * own force layout starts from random positions and is not fitted to its box, so the picture
 * changed on every load and spilled over the edges; this one runs to the end in a box of the
 * chart's proportions, and ECharts then only scales it to fit.
 */

/**
 * The ideal distance as a share of sqrt(area / n), and the pull to the centre. Measured on the
 * 50-stock demo MST in a 580 × 480 box: 0.9 and 0.02 (the textbook values) pinned 42 nodes to the
 * walls; 0.25 and 0.1 pin none, with at least 20 px between any two nodes.
 */
const K_FACTOR = 0.25;
const GRAVITY = 0.1;

export interface LayoutEdge {
  source: number;
  target: number;
  /** |ρ|: stronger pairs pull harder, so they end up closer. */
  weight: number;
}

export interface Point {
  x: number;
  y: number;
}

/**
 * Positions of `n` nodes in a `width` × `height` box. `groups` (communities) seed the start:
 * each group around its own point, so clusters unfold without crossing each other.
 */
export function forceLayout(n: number, edges: LayoutEdge[], groups: (number | null)[], width: number, height: number): Point[] {
  const area = width * height;
  const k = Math.sqrt(area / Math.max(1, n)) * K_FACTOR;
  const nGroups = Math.max(1, ...groups.map((g) => (g ?? -1) + 1));
  const pos = groups.map((g, i) => {
    const a = (2 * Math.PI * (g ?? nGroups)) / (nGroups + 1);
    const spin = i * 2.399963; // the golden angle spreads a group's members evenly around its centre
    const r = Math.min(width, height) * 0.08;
    return {
      x: width / 2 + width * 0.3 * Math.cos(a) + r * Math.cos(spin),
      y: height / 2 + height * 0.3 * Math.sin(a) + r * Math.sin(spin),
    };
  });
  const iterations = n <= 100 ? 400 : n <= 250 ? 200 : 80;
  const dx = new Float64Array(n);
  const dy = new Float64Array(n);
  for (let it = 0; it < iterations; it++) {
    const temperature = (Math.min(width, height) / 8) * (1 - it / iterations) + 0.5;
    dx.fill(0);
    dy.fill(0);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const ex = pos[i].x - pos[j].x;
        const ey = pos[i].y - pos[j].y;
        const d2 = Math.max(ex * ex + ey * ey, 0.01);
        const f = (k * k) / d2;
        dx[i] += ex * f;
        dy[i] += ey * f;
        dx[j] -= ex * f;
        dy[j] -= ey * f;
      }
    }
    for (const e of edges) {
      const ex = pos[e.source].x - pos[e.target].x;
      const ey = pos[e.source].y - pos[e.target].y;
      const d = Math.sqrt(ex * ex + ey * ey) || 0.01;
      const f = (d / k) * (0.4 + e.weight);
      dx[e.source] -= ex * f;
      dy[e.source] -= ey * f;
      dx[e.target] += ex * f;
      dy[e.target] += ey * f;
    }
    for (let i = 0; i < n; i++) {
      // A weak pull to the centre keeps separate components (threshold graphs) in the box.
      dx[i] += (width / 2 - pos[i].x) * GRAVITY;
      dy[i] += (height / 2 - pos[i].y) * GRAVITY;
      const len = Math.sqrt(dx[i] * dx[i] + dy[i] * dy[i]) || 1;
      const step = Math.min(len, temperature);
      pos[i].x = Math.min(width, Math.max(0, pos[i].x + (dx[i] / len) * step));
      pos[i].y = Math.min(height, Math.max(0, pos[i].y + (dy[i] / len) * step));
    }
  }
  return pos;
}
