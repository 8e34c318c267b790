import { edgeLength } from "../../src/engine/graph.ts";

/**
 * Kruskal on d, candidate edges in (i < j) order and a stable sort: the same tie rule as
 * networkx's minimum_spanning_tree on a graph whose edges were added in that order. The
 * reference for src/engine/graph.ts's mstPairs (Prim).
 */
export function kruskalPairs(corr: Float64Array, n: number): number[] {
  const m = (n * (n - 1)) / 2;
  const ei = new Int32Array(m);
  const ej = new Int32Array(m);
  const ed = new Float64Array(m);
  let e = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      ei[e] = i;
      ej[e] = j;
      ed[e] = edgeLength(Math.abs(corr[i * n + j]));
      e++;
    }
  const order = Array.from({ length: m }, (_, q) => q).sort((a, b) => ed[a] - ed[b] || a - b);
  const parent = Int32Array.from({ length: n }, (_, v) => v);
  const find = (v: number): number => {
    while (parent[v] !== v) {
      parent[v] = parent[parent[v]];
      v = parent[v];
    }
    return v;
  };
  const pairs: number[] = [];
  for (let q = 0; q < m && pairs.length < 2 * (n - 1); q++) {
    const a = find(ei[order[q]]);
    const b = find(ej[order[q]]);
    if (a === b) continue;
    parent[a] = b;
    pairs.push(ei[order[q]], ej[order[q]]);
  }
  return pairs;
}
