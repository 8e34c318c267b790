/**
 * Betweenness and closeness on a tree (every mst graph) without Dijkstra; shortestPathMetrics
 * (shortest-paths.ts) tries this first.
 */
import type { Graph } from "../graph.ts";
import type { ShortestPathMetrics } from "./path-metrics.ts";

/**
 * Betweenness and closeness on a tree (every mst graph), where each pair has exactly one path:
 * separated-pair counts and one traversal per source instead of Dijkstra, the same numbers
 * (formulas: docs/engine.md). Returns null, leaving it to Dijkstra, when g is not connected or has
 * an edge of length 0 (|rho| = 1), where networkx counts an extra equal path.
 */
export function treePathMetrics(g: Graph, wantBetweenness: boolean, wantCloseness: boolean): ShortestPathMetrics | null {
  const n = g.n;
  if (n <= 2 || g.src.length !== n - 1) return null;
  const { offsets, nbr, nbrD } = g;
  for (let e = 0; e < g.d.length; e++) if (g.d[e] === 0) return null;
  const parent = new Int32Array(n).fill(-1);
  const order = new Int32Array(n);
  const dist = new Float64Array(n);
  // Traversal from node 0: parents before children.
  let count = 0;
  parent[0] = 0;
  order[count++] = 0;
  for (let q = 0; q < count; q++) {
    const v = order[q];
    for (let p = offsets[v]; p < offsets[v + 1]; p++) {
      const w = nbr[p];
      if (parent[w] === -1) {
        parent[w] = v;
        order[count++] = w;
      }
    }
  }
  if (count !== n) return null;
  let bc: Float64Array | null = null;
  if (wantBetweenness) {
    const size = new Float64Array(n).fill(1);
    const sumSq = new Float64Array(n);
    for (let q = n - 1; q > 0; q--) {
      const v = order[q];
      size[parent[v]] += size[v];
      sumSq[parent[v]] += size[v] * size[v];
    }
    bc = new Float64Array(n);
    // Brandes over ordered pairs counts each separated pair twice; networkx then scales by 1/((n-1)(n-2)).
    const scale = 1 / ((n - 1) * (n - 2));
    for (let v = 0; v < n; v++) {
      const up = n - size[v];
      const pairs = ((n - 1) * (n - 1) - sumSq[v] - up * up) / 2;
      bc[v] = 2 * pairs * scale;
    }
  }
  let cc: Float64Array | null = null;
  if (wantCloseness) {
    cc = new Float64Array(n);
    const from = new Int32Array(n);
    const queue = new Int32Array(n);
    for (let s = 0; s < n; s++) {
      let head = 0;
      let tail = 0;
      let totsp = 0;
      queue[tail++] = s;
      from[s] = -1;
      dist[s] = 0;
      while (head < tail) {
        const v = queue[head++];
        const dv = dist[v];
        totsp += dv;
        for (let p = offsets[v]; p < offsets[v + 1]; p++) {
          const w = nbr[p];
          if (w === from[v]) continue;
          from[w] = v;
          dist[w] = dv + nbrD[p];
          queue[tail++] = w;
        }
      }
      // networkx's reachable-fraction factor is 1 here: a connected tree reaches all n - 1 others.
      cc[s] = totsp > 0 ? (n - 1) / totsp : 0;
    }
  }
  return { betweenness: bc, closeness: cc };
}
