/**
 * Betweenness and closeness from one weighted Dijkstra per source (edge length d).
 * Hand-written on the CSR arrays because graphology's closeness ignores weights, and one shared
 * pass per source halves the work. The search mirrors networkx 2.8's
 * `_single_source_dijkstra_path_basic` exactly — heap keyed by (distance, push counter), a strict
 * `<` to replace a tentative distance and `==` to count an equal path — so path counts, and
 * with them betweenness under exact ties, match networkx.
 */
import type { Graph } from "../graph.ts";

export interface ShortestPathMetrics {
  betweenness: Float64Array | null;
  closeness: Float64Array | null;
}

/**
 * betweenness: nx.betweenness_centrality(G, weight="d", normalized=True) (Brandes);
 * closeness: nx.closeness_centrality(G, distance="d") with the Wasserman–Faust correction.
 *
 * The heap is indexed (one live entry per node, decrease-key) rather than networkx's lazy heap of
 * (dist, counter, pred, v) tuples. The pop order is the same: a node's live entry in networkx is
 * the one pushed at its last strict improvement, keyed (seen[w], counter at that push), and stale
 * entries are skipped; here the entry is updated to exactly that key and pred. Hand-written
 * because the lazy heap's allocations dominated the per-source cost (bench/engine.bench.ts).
 */
/** (seen, seq) order of the heap: distance, then push counter. */
function less(seen: Float64Array, seq: Float64Array, a: number, b: number): boolean {
  return seen[a] < seen[b] || (seen[a] === seen[b] && seq[a] < seq[b]);
}

function siftUp(heap: Int32Array, pos: Int32Array, seen: Float64Array, seq: Float64Array, i: number): void {
  const v = heap[i];
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const pv = heap[parent];
    if (!less(seen, seq, v, pv)) break;
    heap[i] = pv;
    pos[pv] = i;
    i = parent;
  }
  heap[i] = v;
  pos[v] = i;
}

/** Removes heap[0]; returns the new size. */
function popTop(heap: Int32Array, pos: Int32Array, seen: Float64Array, seq: Float64Array, size: number): number {
  pos[heap[0]] = -1;
  const last = heap[--size];
  if (size === 0) return 0;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= size) break;
    const r = l + 1;
    const c = r < size && less(seen, seq, heap[r], heap[l]) ? r : l;
    if (!less(seen, seq, heap[c], last)) break;
    heap[i] = heap[c];
    pos[heap[i]] = i;
    i = c;
  }
  heap[i] = last;
  pos[last] = i;
  return size;
}

export function shortestPathMetrics(g: Graph, wantBetweenness: boolean, wantCloseness: boolean): ShortestPathMetrics {
  const tree = treePathMetrics(g, wantBetweenness, wantCloseness);
  return tree ?? dijkstraPathMetrics(g, wantBetweenness, wantCloseness);
}

/** shortestPathMetrics by one Dijkstra per source, on any graph. */
export function dijkstraPathMetrics(g: Graph, wantBetweenness: boolean, wantCloseness: boolean): ShortestPathMetrics {
  const n = g.n;
  const { offsets, nbr, nbrD } = g;
  const bc = new Float64Array(n);
  const cc = new Float64Array(n);
  const sigma = new Float64Array(n);
  const delta = new Float64Array(n);
  const seen = new Float64Array(n);
  const seq = new Float64Array(n);
  const via = new Int32Array(n);
  const done = new Uint8Array(n);
  const order = new Int32Array(n);
  const heap = new Int32Array(n);
  const pos = new Int32Array(n);
  // Predecessor lists as linked lists: each scanned directed edge adds at most one entry, so 2m slots suffice.
  const predHead = new Int32Array(n);
  const predNext = new Int32Array(nbr.length + 1);
  const predNode = new Int32Array(nbr.length + 1);
  let size = 0;
  for (let s = 0; s < n; s++) {
    for (let v = 0; v < n; v++) {
      sigma[v] = 0;
      seen[v] = Infinity;
      done[v] = 0;
      pos[v] = -1;
      predHead[v] = -1;
    }
    let predTop = 0;
    let count = 0;
    let counter = 0;
    sigma[s] = 1;
    seen[s] = 0;
    seq[s] = counter++;
    via[s] = s;
    heap[0] = s;
    pos[s] = 0;
    size = 1;
    let reached = 0;
    let totsp = 0;
    while (size > 0) {
      const v = heap[0];
      size = popTop(heap, pos, seen, seq, size);
      const dv = seen[v];
      sigma[v] += sigma[via[v]]; // networkx also does this for s itself (pred = s), doubling every sigma
      order[count++] = v;
      done[v] = 1;
      reached++;
      totsp += dv;
      for (let p = offsets[v]; p < offsets[v + 1]; p++) {
        const w = nbr[p];
        const vw = dv + nbrD[p];
        if (!done[w] && vw < seen[w]) {
          seen[w] = vw;
          seq[w] = counter++;
          via[w] = v;
          if (pos[w] === -1) {
            heap[size] = w;
            pos[w] = size++;
          }
          siftUp(heap, pos, seen, seq, pos[w]);
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

/**
 * The same two metrics on a tree (every mst graph), where each pair has exactly one path: no
 * heap, no path counting. Betweenness of v counts the pairs its removal separates,
 * ((n-1)² − Σ component²) / 2, exactly the integer Brandes accumulates; closeness sums each
 * source's distances, computed along the tree exactly as Dijkstra would (dist[child] =
 * dist[parent] + d), in traversal order instead of distance order (the sum may differ in the
 * last bit). Hand-written for the benchmark: mst is the default graph. Returns null, leaving it to
 * Dijkstra, when g is not connected (n - 1 edges but a cycle) or has an edge of length 0
 * (|rho| = 1): networkx's Dijkstra then also counts the zero-length way back to a finished node
 * as an equal path, which changes betweenness, and the port above reproduces that.
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
      cc[s] = totsp > 0 ? ((n - 1) / totsp) * ((n - 1) / (n - 1)) : 0;
    }
  }
  return { betweenness: bc, closeness: cc };
}
