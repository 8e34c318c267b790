/**
 * Betweenness and closeness from one weighted Dijkstra per source (edge length d).
 * Hand-written on the CSR arrays because graphology's closeness ignores weights, and one shared
 * pass per source halves the work. The search mirrors networkx 2.8's
 * `_single_source_dijkstra_path_basic` exactly — heap keyed by (distance, push counter), a strict
 * `<` to replace a tentative distance and `==` to count an equal path — so path counts, and
 * with them betweenness under exact ties, match networkx.
 */
import type { Graph } from "../graph.ts";
import { MinHeap } from "./min-heap.ts";

export interface ShortestPathMetrics {
  betweenness: Float64Array | null;
  closeness: Float64Array | null;
}

/**
 * betweenness: nx.betweenness_centrality(G, weight="d", normalized=True) (Brandes);
 * closeness: nx.closeness_centrality(G, distance="d") with the Wasserman–Faust correction.
 */
export function shortestPathMetrics(g: Graph, wantBetweenness: boolean, wantCloseness: boolean): ShortestPathMetrics {
  const n = g.n;
  const { offsets, nbr, nbrD } = g;
  const bc = new Float64Array(n);
  const cc = new Float64Array(n);
  const sigma = new Float64Array(n);
  const delta = new Float64Array(n);
  const dist = new Float64Array(n);
  const seen = new Float64Array(n);
  const done = new Uint8Array(n);
  const order = new Int32Array(n);
  // Predecessor lists as linked lists: each scanned directed edge adds at most one entry, so 2m slots suffice.
  const predHead = new Int32Array(n);
  const predNext = new Int32Array(nbr.length + 1);
  const predNode = new Int32Array(nbr.length + 1);
  const heap = new MinHeap(nbr.length + 1);
  for (let s = 0; s < n; s++) {
    sigma.fill(0);
    seen.fill(Infinity);
    done.fill(0);
    predHead.fill(-1);
    let predTop = 0;
    let count = 0;
    sigma[s] = 1;
    seen[s] = 0;
    heap.clear();
    heap.push(0, s, s);
    let reached = 0;
    let totsp = 0;
    while (heap.size > 0) {
      const dv = heap.topKey();
      const pred = heap.topPred();
      const v = heap.pop();
      if (done[v]) continue;
      sigma[v] += sigma[pred]; // networkx also does this for s itself (pred = s), doubling every sigma
      order[count++] = v;
      done[v] = 1;
      dist[v] = dv;
      reached++;
      totsp += dv;
      for (let p = offsets[v]; p < offsets[v + 1]; p++) {
        const w = nbr[p];
        const vw = dv + nbrD[p];
        if (!done[w] && vw < seen[w]) {
          seen[w] = vw;
          heap.push(vw, w, v);
          sigma[w] = 0;
          predHead[w] = -1;
          predNode[predTop] = v;
          predNext[predTop] = predHead[w];
          predHead[w] = predTop++;
        } else if (vw === seen[w]) {
          sigma[w] += sigma[v];
          predNode[predTop] = v;
          predNext[predTop] = predHead[w];
          predHead[w] = predTop++;
        }
      }
    }
    if (wantCloseness) {
      let c = 0;
      if (totsp > 0 && n > 1) c = ((reached - 1) / totsp) * ((reached - 1) / (n - 1));
      cc[s] = c;
    }
    if (wantBetweenness) {
      for (let q = 0; q < count; q++) delta[order[q]] = 0;
      for (let q = count - 1; q >= 0; q--) {
        const w = order[q];
        const coeff = (1 + delta[w]) / sigma[w];
        for (let e = predHead[w]; e !== -1; e = predNext[e]) delta[predNode[e]] += sigma[predNode[e]] * coeff;
        if (w !== s) bc[w] += delta[w];
      }
    }
  }
  if (wantBetweenness && n > 2) {
    const scale = 1 / ((n - 1) * (n - 2));
    for (let v = 0; v < n; v++) bc[v] *= scale;
  }
  return { betweenness: wantBetweenness ? bc : null, closeness: wantCloseness ? cc : null };
}
