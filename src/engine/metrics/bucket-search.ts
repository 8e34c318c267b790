/**
 * Dijkstra from every source with the frontier in buckets, for graphs above SORTED_FRONTIER_MAX
 * nodes: a circular bucket queue over distance (Dial's idea, for real-valued lengths) that pops in
 * the same (distance, push counter) order as networkx's heap. Every tentative distance lies in
 * [d, d + maxEdge] for the last popped distance d, so SLOTS buckets spanning maxEdge never alias;
 * the lowest occupied bucket is found through occupancy bits, and within it the least (distance,
 * counter) by a scan of its few nodes (under one on average on a 2,000-node knn graph). It replaced
 * a binary heap whose sift-downs over a frontier of ~1,500 nodes were a third of a 2,000-symbol knn
 * request's time: the search is 0.5–0.7× the heap's (docs/engine.md § Betweenness and closeness).
 */
import type { Graph } from "../graph.ts";
import { finishAll, finishSource, searchArrays } from "./brandes.ts";
import type { ShortestPathMetrics } from "./path-metrics.ts";

/** 32 words of occupancy bits under one summary word. */
const SLOTS = 1024;

/** Index of the lowest set bit of a non-zero 32-bit integer. */
function lowestBit(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** Takes v out of bucket s's list, clearing the bucket's occupancy bits when it empties; returns the new summary word. */
function unlink(head: Int32Array, next: Int32Array, prev: Int32Array, occupied: Int32Array, summary: number, v: number, s: number): number {
  const p = prev[v];
  const q = next[v];
  if (q !== -1) prev[q] = p;
  if (p !== -1) {
    next[p] = q;
    return summary;
  }
  head[s] = q;
  if (q !== -1) return summary;
  const w = s >> 5;
  occupied[w] &= ~(1 << (s & 31));
  return occupied[w] === 0 ? summary & ~(1 << w) : summary;
}

/** dijkstraPathMetrics (shortest-paths.ts) with the bucket frontier; the relaxation is the same. */
export function bucketPathMetrics(g: Graph, wantBetweenness: boolean, wantCloseness: boolean): ShortestPathMetrics {
  const n = g.n;
  const { offsets, nbr, nbrD } = g;
  const a = searchArrays(g);
  const { sigma, seen, via, order, predHead, predNext, predNode, shortest, compSize } = a;
  let maxEdge = 0;
  for (let p = 0; p < nbrD.length; p++) if (nbrD[p] > maxEdge) maxEdge = nbrD[p];
  // A margin of 4 slots keeps [d, d + maxEdge] within SLOTS − 2 buckets after rounding.
  const perUnit = maxEdge > 0 ? (SLOTS - 4) / maxEdge : 0;
  const head = new Int32Array(SLOTS).fill(-1);
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  /** A node's bucket while in the frontier, -1 outside. */
  const slot = new Int32Array(n).fill(-1);
  /** The push counter of a node's last strict improvement: ties in distance pop in its order. */
  const pushed = new Int32Array(n);
  const occupied = new Int32Array(SLOTS >> 5);
  let summary = 0;
  let cursor = 0;
  for (let s = 0; s < n; s++) {
    predHead[s] = -1; // every other reached node gets its list at its first (strict) improvement
    let predTop = 0;
    let count = 0;
    let counter = 0;
    sigma[s] = 1;
    seen[s] = 0;
    via[s] = s;
    pushed[s] = counter++;
    head[0] = s;
    next[s] = -1;
    prev[s] = -1;
    slot[s] = 0;
    occupied[0] |= 1;
    summary |= 1;
    let live = 1;
    let totsp = 0;
    let reached = 1;
    // An upper bound on every tentative distance, taken once all of s's component is reached.
    let far = -1;
    while (live > 0) {
      // The first occupied bucket at or after the cursor, circularly.
      let word = cursor >> 5;
      const bits = occupied[word] & (-1 << (cursor & 31));
      if (bits !== 0) cursor = (word << 5) | lowestBit(bits);
      else {
        let above = word === 31 ? 0 : summary & (-1 << (word + 1));
        if (above === 0) above = summary; // wrap around, the lower bits of word included
        word = lowestBit(above);
        cursor = (word << 5) | lowestBit(occupied[word]);
      }
      let v = head[cursor];
      let dv = seen[v];
      let vc = pushed[v];
      for (let x = next[v]; x !== -1; x = next[x]) {
        const k = seen[x];
        if (k < dv || (k === dv && pushed[x] < vc)) {
          v = x;
          dv = k;
          vc = pushed[x];
        }
      }
      summary = unlink(head, next, prev, occupied, summary, v, cursor);
      slot[v] = -1;
      live--;
      sigma[v] += sigma[via[v]]; // networkx also does this for s itself (pred = s), doubling every sigma
      const sv = sigma[v];
      order[count++] = v;
      totsp += dv;
      if (reached === compSize[s]) {
        if (far < 0) {
          far = dv;
          for (let b = 0; b < SLOTS; b++) for (let x = head[b]; x !== -1; x = next[x]) if (seen[x] > far) far = seen[x];
        }
        // No edge of v can improve or tie any more (docs/engine.md § Betweenness and closeness, "Pruning"): skip them.
        if (dv + shortest[v] > far) continue;
      }
      for (let p = offsets[v], end = offsets[v + 1]; p < end; p++) {
        const w = nbr[p];
        const vw = dv + nbrD[p];
        const sw = seen[w];
        if (vw < sw) {
          // A finished w has seen[w] <= dv <= vw (see shortest-paths.ts), so it is never improved.
          if (sw === Infinity) reached++;
          seen[w] = vw;
          via[w] = v;
          pushed[w] = counter++;
          if (slot[w] === -1) live++;
          else summary = unlink(head, next, prev, occupied, summary, w, slot[w]);
          // ToUint32 is floor modulo 2^32, a multiple of SLOTS: the bucket index modulo SLOTS at any size.
          const b = ((vw * perUnit) >>> 0) & (SLOTS - 1);
          const h = head[b];
          next[w] = h;
          prev[w] = -1;
          if (h !== -1) prev[h] = w;
          else {
            occupied[b >> 5] |= 1 << (b & 31);
            summary |= 1 << (b >> 5);
          }
          head[b] = w;
          slot[w] = b;
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
