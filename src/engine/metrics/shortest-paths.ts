/**
 * Betweenness and closeness from one weighted Dijkstra per source (edge length d).
 * Hand-written on the CSR arrays because graphology's closeness ignores weights, and one shared
 * pass per source halves the work. The search mirrors networkx 2.8's
 * `_single_source_dijkstra_path_basic` exactly — heap keyed by (distance, push counter), a strict
 * `<` to replace a tentative distance and `==` to count an equal path — so path counts, and
 * with them betweenness under exact ties, match networkx.
 */
import type { Graph } from "../graph.ts";
import { finishAll, finishSource, searchArrays } from "./brandes.ts";
import { bucketPathMetrics } from "./bucket-search.ts";
import type { ShortestPathMetrics } from "./path-metrics.ts";
import { treePathMetrics } from "./tree-paths.ts";

export type { ShortestPathMetrics };

/**
 * Up to this many nodes the frontier is an array fr[head..tail) kept sorted (short frontiers, new
 * keys near the end), above it buckets (bucket-search.ts); both pop in the same (distance, push
 * counter) order. Sorted form: 6–17% of the whole snapshot on knn, threshold, complete and tmfg
 * graphs against a heap (in-process A/B, docs/engine.md); the buckets' fixed cost loses below ~100.
 */
export const SORTED_FRONTIER_MAX = 96;

/**
 * Moves node v with distance key left from slot i of the sorted frontier to its place. Its push
 * counter would be the newest, above every counter in the frontier, so only the distance decides:
 * v stops behind every node of equal distance, as (distance, counter) order requires, and the
 * sorted form keeps no counters at all.
 */
function moveLeft(fr: Int32Array, fk: Float64Array, pos: Int32Array, head: number, i: number, v: number, key: number): void {
  while (i > head) {
    const pk = fk[i - 1];
    if (!(key < pk)) break;
    const pv = fr[i - 1];
    fr[i] = pv;
    fk[i] = pk;
    pos[pv] = i;
    i--;
  }
  fr[i] = v;
  fk[i] = key;
  pos[v] = i;
}

/** The tree formulas when g is a tree without zero-length edges, else Dijkstra. */
export function shortestPathMetrics(g: Graph, wantBetweenness: boolean, wantCloseness: boolean): ShortestPathMetrics {
  const tree = treePathMetrics(g, wantBetweenness, wantCloseness);
  return tree ?? dijkstraPathMetrics(g, wantBetweenness, wantCloseness);
}

/**
 * shortestPathMetrics by one Dijkstra per source, on any graph.
 * betweenness: nx.betweenness_centrality(G, weight="d", normalized=True) (Brandes);
 * closeness: nx.closeness_centrality(G, distance="d") with the Wasserman–Faust correction.
 * The frontier is indexed (one live entry per node, decrease-key) instead of networkx's lazy heap,
 * whose allocations dominated the per-source cost; it pops in networkx's order (docs/engine.md).
 */
export function dijkstraPathMetrics(g: Graph, wantBetweenness: boolean, wantCloseness: boolean): ShortestPathMetrics {
  if (g.n > SORTED_FRONTIER_MAX) return bucketPathMetrics(g, wantBetweenness, wantCloseness);
  const n = g.n;
  const { offsets, nbr, nbrD } = g;
  const a = searchArrays(g);
  const { sigma, seen, via, order, predHead, predNext, predNode, shortest, compSize } = a;
  // The frontier: fr[head..tail) sorted by key fk; pos[v] is v's slot in it, -1 when outside.
  const fr = new Int32Array(n);
  const fk = new Float64Array(n);
  const pos = new Int32Array(n).fill(-1);
  for (let s = 0; s < n; s++) {
    predHead[s] = -1; // every other reached node gets its list at its first (strict) improvement
    let predTop = 0;
    let count = 0;
    sigma[s] = 1;
    seen[s] = 0;
    via[s] = s;
    fr[0] = s;
    fk[0] = 0;
    pos[s] = 0;
    let head = 0;
    let tail = 1;
    let totsp = 0;
    let reached = 1;
    // An upper bound on every tentative distance, taken once all of s's component is reached.
    let far = -1;
    while (head < tail) {
      const v = fr[head++];
      pos[v] = -1;
      const dv = seen[v];
      sigma[v] += sigma[via[v]]; // networkx also does this for s itself (pred = s), doubling every sigma
      const sv = sigma[v];
      order[count++] = v;
      totsp += dv;
      if (reached === compSize[s]) {
        if (far < 0) {
          far = dv;
          for (let i = head; i < tail; i++) if (fk[i] > far) far = fk[i];
        }
        // No edge of v can improve or tie any more (docs/engine.md § Betweenness and closeness, "Pruning"): skip them.
        if (dv + shortest[v] > far) continue;
      }
      for (let p = offsets[v], end = offsets[v + 1]; p < end; p++) {
        const w = nbr[p];
        const vw = dv + nbrD[p];
        const sw = seen[w];
        if (vw < sw) {
          // networkx never improves a finished w; no test is needed for that here: nodes are popped
          // in nondecreasing distance and lengths are >= 0, so a finished w has seen[w] <= dv <= vw.
          if (sw === Infinity) reached++;
          seen[w] = vw;
          via[w] = v;
          moveLeft(fr, fk, pos, head, pos[w] === -1 ? tail++ : pos[w], w, vw);
          sigma[w] = 0;
          predNode[predTop] = v;
          predNext[predTop] = -1;
          predHead[w] = predTop++;
        } else if (vw === sw) {
          sigma[w] += sv;
          predNode[predTop] = v;
          predNext[predTop] = predHead[w];
          predHead[w] = predTop++;
        }
      }
    }
    finishSource(a, s, count, totsp, wantBetweenness, wantCloseness);
  }
  return finishAll(a, wantBetweenness, wantCloseness);
}
