import type { Graph } from "../../src/engine/graph.ts";

/**
 * Literal port of networkx 2.8's `_single_source_dijkstra_path_basic` + `_accumulate_basic`
 * (lazy heap of (dist, counter, pred, v), popped by a linear search) and of closeness's
 * `_dijkstra_multisource` sum, for comparison with src/engine/metrics/shortest-paths.ts.
 */
export function networkxPaths(g: Graph): { betweenness: number[]; closeness: number[] } {
  const n = g.n;
  const bc = new Array(n).fill(0);
  const cc = new Array(n).fill(0);
  for (let s = 0; s < n; s++) {
    const S: number[] = [];
    const P: number[][] = Array.from({ length: n }, () => []);
    const sigma = new Array(n).fill(0);
    sigma[s] = 1;
    const D = new Map<number, number>();
    const seen = new Map<number, number>([[s, 0]]);
    let c = 0;
    const Q: [number, number, number, number][] = [[0, c++, s, s]];
    while (Q.length > 0) {
      let at = 0;
      for (let i = 1; i < Q.length; i++) if (Q[i][0] < Q[at][0] || (Q[i][0] === Q[at][0] && Q[i][1] < Q[at][1])) at = i;
      const [dist, , pred, v] = Q.splice(at, 1)[0];
      if (D.has(v)) continue;
      sigma[v] += sigma[pred];
      S.push(v);
      D.set(v, dist);
      for (let p = g.offsets[v]; p < g.offsets[v + 1]; p++) {
        const w = g.nbr[p];
        const vw = dist + g.nbrD[p];
        if (!D.has(w) && (!seen.has(w) || vw < seen.get(w)!)) {
          seen.set(w, vw);
          Q.push([vw, c++, v, w]);
          sigma[w] = 0;
          P[w] = [v];
        } else if (vw === seen.get(w)) {
          sigma[w] += sigma[v];
          P[w].push(v);
        }
      }
    }
    const delta = new Array(n).fill(0);
    for (let q = S.length - 1; q >= 0; q--) {
      const w = S[q];
      const coeff = (1 + delta[w]) / sigma[w];
      for (const v of P[w]) delta[v] += sigma[v] * coeff;
      if (w !== s) bc[w] += delta[w];
    }
    let totsp = 0;
    for (const d of D.values()) totsp += d;
    if (totsp > 0 && n > 1) cc[s] = ((D.size - 1) / totsp) * ((D.size - 1) / (n - 1));
  }
  const scale = n > 2 ? 1 / ((n - 1) * (n - 2)) : 1;
  return { betweenness: bc.map((b) => b * scale), closeness: cc };
}
