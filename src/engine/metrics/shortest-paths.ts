/**
 * Betweenness and closeness from one weighted Dijkstra per source (edge length d).
 * Hand-written on the CSR arrays because graphology's closeness ignores weights, and one shared
 * pass per source halves the work. The search mirrors networkx 2.8's
 * `_single_source_dijkstra_path_basic` exactly — heap keyed by (distance, push counter), a strict
 * `<` to replace a tentative distance and `==` to count an equal path — so path counts, and
 * with them betweenness under exact ties, match networkx.
 */
import type { Graph } from "../graph.ts";
import { connectedComponents } from "./components.ts";
import type { ShortestPathMetrics } from "./path-metrics.ts";
import { treePathMetrics } from "./tree-paths.ts";

export type { ShortestPathMetrics };

/**
 * Up to this many nodes the frontier is an array fr[head..tail) kept sorted (short frontiers, new
 * keys near the end), above it a binary heap fr[0..tail); both pop in the same (distance, push
 * counter) order. Sorted form: 6–17% of the whole snapshot on knn, threshold, complete and tmfg
 * graphs (in-process A/B, docs/engine.md); above ~100 nodes shifting loses to the heap.
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

/** Heap form: moves node v with key (key, sq) up from slot i; sq is the newest counter, so only the distance decides (see moveLeft). */
function siftUp(heap: Int32Array, hk: Float64Array, hs: Int32Array, pos: Int32Array, i: number, v: number, key: number, sq: number): void {
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const pk = hk[parent];
    if (!(key < pk)) break;
    const pv = heap[parent];
    heap[i] = pv;
    hk[i] = pk;
    hs[i] = hs[parent];
    pos[pv] = i;
    i = parent;
  }
  heap[i] = v;
  hk[i] = key;
  hs[i] = sq;
  pos[v] = i;
}

/** Heap form: removes heap[0]; returns the new size. */
function popTop(heap: Int32Array, hk: Float64Array, hs: Int32Array, pos: Int32Array, size: number): number {
  pos[heap[0]] = -1;
  size--;
  if (size === 0) return 0;
  const last = heap[size];
  const lk = hk[size];
  const ls = hs[size];
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= size) break;
    let c = l;
    let ck = hk[l];
    const r = l + 1;
    if (r < size) {
      const rk = hk[r];
      if (rk < ck || (rk === ck && hs[r] < hs[l])) {
        c = r;
        ck = rk;
      }
    }
    if (!(ck < lk || (ck === lk && hs[c] < ls))) break;
    const cv = heap[c];
    heap[i] = cv;
    hk[i] = ck;
    hs[i] = hs[c];
    pos[cv] = i;
    i = c;
  }
  heap[i] = last;
  hk[i] = lk;
  hs[i] = ls;
  pos[last] = i;
  return size;
}

/** Each node's shortest incident edge length (Infinity when it has none). */
function shortestEdges(g: Graph): Float64Array {
  const out = new Float64Array(g.n).fill(Infinity);
  for (let v = 0; v < g.n; v++) {
    for (let p = g.offsets[v]; p < g.offsets[v + 1]; p++) if (g.nbrD[p] < out[v]) out[v] = g.nbrD[p];
  }
  return out;
}

/** The size of each node's connected component. */
function componentSizes(g: Graph): Int32Array {
  const { comp, members } = connectedComponents(g);
  return Int32Array.from(comp, (c) => members[c].length);
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
  const n = g.n;
  const { offsets, nbr, nbrD } = g;
  const bc = new Float64Array(n);
  const cc = new Float64Array(n);
  const sigma = new Float64Array(n);
  const delta = new Float64Array(n);
  const seen = new Float64Array(n);
  const via = new Int32Array(n);
  const order = new Int32Array(n);
  // The frontier (see SORTED_FRONTIER_MAX); pos[v]: v's slot in it, -1 when outside.
  const sorted = n <= SORTED_FRONTIER_MAX;
  const fr = new Int32Array(n);
  const fk = new Float64Array(n);
  const fs = new Int32Array(n);
  const pos = new Int32Array(n);
  // Predecessor lists as linked lists: each scanned directed edge adds at most one entry, so 2m slots suffice.
  const predHead = new Int32Array(n);
  const predNext = new Int32Array(nbr.length + 1);
  const predNode = new Int32Array(nbr.length + 1);
  let maxDegree = 0;
  for (let v = 0; v < n; v++) maxDegree = Math.max(maxDegree, offsets[v + 1] - offsets[v]);
  // The edges of the node being finished that improve or tie a tentative distance.
  const cand = new Int32Array(maxDegree);
  const shortest = shortestEdges(g);
  const compSize = componentSizes(g);
  // Between sources only the reached nodes are reset (below); every popped node leaves pos at -1.
  seen.fill(Infinity);
  pos.fill(-1);
  for (let s = 0; s < n; s++) {
    predHead[s] = -1; // every other reached node gets its list at its first (strict) improvement
    let predTop = 0;
    let count = 0;
    let counter = 0;
    sigma[s] = 1;
    seen[s] = 0;
    via[s] = s;
    fr[0] = s;
    fk[0] = 0;
    fs[0] = counter++;
    pos[s] = 0;
    // The frontier is fr[head..tail); the heap form keeps head at 0.
    let head = 0;
    let tail = 1;
    let totsp = 0;
    let reached = 1;
    // An upper bound on every tentative distance, taken once all of s's component is reached.
    let far = -1;
    while (head < tail) {
      let v: number;
      if (sorted) {
        v = fr[head++];
        pos[v] = -1;
      } else {
        v = fr[0];
        tail = popTop(fr, fk, fs, pos, tail);
      }
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
      // Branch-free gathering while the search grows (whether an edge improves is a coin toss to
      // the CPU): 4–8% of the whole knn snapshot over three A/B runs, borderline (docs/engine.md).
      let nc = 0;
      if (far < 0) {
        for (let p = offsets[v], end = offsets[v + 1]; p < end; p++) {
          cand[nc] = p;
          nc += +(dv + nbrD[p] <= seen[nbr[p]]);
        }
      } else {
        for (let p = offsets[v], end = offsets[v + 1]; p < end; p++) if (dv + nbrD[p] <= seen[nbr[p]]) cand[nc++] = p;
      }
      for (let q = 0; q < nc; q++) {
        const p = cand[q];
        const w = nbr[p];
        const vw = dv + nbrD[p];
        const sw = seen[w];
        if (vw < sw) {
          // networkx never improves a finished w; no test is needed for that here: nodes are popped
          // in nondecreasing distance and lengths are >= 0, so a finished w has seen[w] <= dv <= vw.
          if (sw === Infinity) reached++;
          seen[w] = vw;
          via[w] = v;
          const at = pos[w] === -1 ? tail++ : pos[w];
          if (sorted) moveLeft(fr, fk, pos, head, at, w, vw);
          else siftUp(fr, fk, fs, pos, at, w, vw, counter++);
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
    for (let q = 0; q < count; q++) {
      const v = order[q];
      seen[v] = Infinity;
    }
    if (wantCloseness && totsp > 0 && n > 1) cc[s] = ((count - 1) / totsp) * ((count - 1) / (n - 1));
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
