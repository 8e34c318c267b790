/**
 * One Louvain level (src/engine/louvain.ts): local moves on a weighted CSR level, label
 * compaction and aggregation into the next level. The arithmetic is networkx 2.8's `_one_level`
 * and `_gen_graph` term for term; only the bookkeeping is typed arrays.
 */
import type { Graph } from "./graph.ts";

/** 0, 1, …, n-1 (typed-array loops: Int32Array.from with a mapping callback is slow in Bun). */
export function identity(n: number): Int32Array {
  const out = new Int32Array(n);
  for (let v = 0; v < n; v++) out[v] = v;
  return out;
}

/** A weighted graph level: CSR without self-loops, self-loop weight and weighted degree per node. */
export interface Level {
  k: number;
  offsets: Int32Array;
  nbr: Int32Array;
  wt: Float64Array;
  degree: Float64Array;
}

/** The first level shares the graph's CSR arrays. */
export function levelFromGraph(g: Graph): Level {
  const degree = new Float64Array(g.n);
  for (let v = 0; v < g.n; v++) for (let p = g.offsets[v]; p < g.offsets[v + 1]; p++) degree[v] += g.nbrW[p];
  return { k: g.n, offsets: g.offsets, nbr: g.nbr, wt: g.nbrW, degree };
}

/**
 * Scratch arrays of one louvain() call, sized for its graph (every level has at most n nodes)
 * and reused by all its levels, orders and rounds: the per-call allocations were a visible share
 * of the Louvain time in bench/engine.bench.ts. w2c, acc and present are all zero between uses.
 */
export class LevelScratch {
  readonly stot: Float64Array;
  readonly w2c: Float64Array;
  readonly touched: Int32Array;
  readonly mark: Int32Array;
  stamp = 0;
  /** count×count cells of the largest aggregation so far (grown on demand). */
  acc = new Float64Array(0);
  present = new Uint8Array(0);
  readonly rowSize: Int32Array;

  constructor(n: number) {
    this.stot = new Float64Array(n);
    this.w2c = new Float64Array(n);
    this.touched = new Int32Array(n);
    this.mark = new Int32Array(n);
    this.rowSize = new Int32Array(n);
  }
}

/**
 * One pass of local moves until no node moves; returns each node's community label (a node index).
 * start: initial labels (default singletons); order: visiting order (default index order).
 */
export function oneLevel(
  level: Level,
  m: number,
  resolution: number,
  scratch: LevelScratch,
  start: Int32Array | null,
  order: Int32Array | null,
): { node2com: Int32Array; moved: boolean } {
  const { k, offsets, nbr, wt, degree } = level;
  const { stot, w2c, touched, mark } = scratch;
  const node2com = start ? start.slice() : identity(k);
  stot.fill(0, 0, k);
  for (let u = 0; u < k; u++) stot[node2com[u]] += degree[u];
  let stamp = scratch.stamp;
  const visit = order ?? identity(k);
  const twoM2 = 2 * m * m;
  let moved = false;
  for (let moves = 1; moves > 0; ) {
    moves = 0;
    for (let q0 = 0; q0 < k; q0++) {
      const u = visit[q0];
      let nt = 0;
      stamp++;
      for (let p = offsets[u], end = offsets[u + 1]; p < end; p++) {
        const c = node2com[nbr[p]];
        // Plain: a branch-free form of this test was within 2% on the whole snapshot (docs/engine.md).
        if (mark[c] !== stamp) {
          mark[c] = stamp;
          touched[nt++] = c;
        }
        w2c[c] += wt[p];
      }
      const own = node2com[u];
      const deg = degree[u];
      stot[own] -= deg;
      const removeCost = -w2c[own] / m + (resolution * stot[own] * deg) / twoM2;
      let best = own;
      let bestGain = 0;
      for (let q = 0; q < nt; q++) {
        const c = touched[q];
        const gain = removeCost + w2c[c] / m - (resolution * stot[c] * deg) / twoM2;
        if (gain > bestGain) {
          bestGain = gain;
          best = c;
        }
        w2c[c] = 0;
      }
      stot[best] += deg;
      if (best !== own) {
        node2com[u] = best;
        moves++;
        moved = true;
      }
    }
  }
  scratch.stamp = stamp;
  return { node2com, moved };
}

/** Relabels labels to 0..c-1 in increasing label order; returns the count. */
export function compactLabels(labels: Int32Array, k: number): number {
  const map = new Int32Array(k).fill(-1);
  for (let u = 0; u < labels.length; u++) map[labels[u]] = 0;
  let next = 0;
  for (let c = 0; c < k; c++) if (map[c] === 0) map[c] = next++;
  for (let u = 0; u < labels.length; u++) labels[u] = map[labels[u]];
  return next;
}

/**
 * Collapses each community of level into one node; internal weight becomes (part of) its degree.
 * Dense count×count accumulators (count <= n): the sums run in the same order as networkx's
 * (u ascending, then its CSR row), and each row comes out in ascending neighbour order.
 */
export function aggregate(level: Level, node2com: Int32Array, count: number, scratch: LevelScratch): Level {
  if (scratch.acc.length < count * count) {
    scratch.acc = new Float64Array(count * count);
    scratch.present = new Uint8Array(count * count);
  }
  const { acc, present, rowSize } = scratch;
  rowSize.fill(0, 0, count);
  const degree = new Float64Array(count);
  for (let u = 0; u < level.k; u++) {
    const cu = node2com[u];
    degree[cu] += level.degree[u];
    const row = cu * count;
    for (let p = level.offsets[u], end = level.offsets[u + 1]; p < end; p++) {
      const cv = node2com[level.nbr[p]];
      // An edge inside cu adds nothing (a branch-free form was within 2% on the snapshot, docs/engine.md).
      if (cv === cu) continue;
      // present, not acc > 0: an edge of weight 0 (rho = 0 in a complete graph) still links.
      const cell = row + cv;
      if (present[cell] === 0) {
        present[cell] = 1;
        rowSize[cu]++;
      }
      acc[cell] += level.wt[p];
    }
  }
  const offsets = new Int32Array(count + 1);
  for (let c = 0; c < count; c++) offsets[c + 1] = offsets[c] + rowSize[c];
  const nbr = new Int32Array(offsets[count]);
  const wt = new Float64Array(offsets[count]);
  for (let c = 0; c < count; c++) {
    let q = offsets[c];
    const row = c * count;
    for (let v = 0; v < count; v++) {
      if (present[row + v] === 0) continue;
      nbr[q] = v;
      wt[q++] = acc[row + v];
      present[row + v] = 0;
      acc[row + v] = 0;
    }
  }
  return { k: count, offsets, nbr, wt, degree };
}
