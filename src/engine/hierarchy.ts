/**
 * Agglomerative hierarchical clustering with scipy's exact output (issue 26): the linkage matrix
 * Z of `scipy.cluster.hierarchy.linkage` (MST for single, nearest-neighbour chain for average,
 * complete and ward, then a stable sort by height and union-find relabelling), `leaves_list`
 * and `fcluster(Z, k, "maxclust")`. Each step follows scipy's `_hierarchy.pyx` loop for loop, so
 * ties break as scipy breaks them. Distances, tie rules and the fcluster version note:
 * docs/engine.md § Hierarchical clustering.
 */

export type LinkageMethod = "single" | "average" | "complete" | "ward";
export const LINKAGE_METHODS: readonly LinkageMethod[] = ["single", "average", "complete", "ward"];

export interface Linkage {
  /** (n−1)×4 row-major, as scipy's Z: left id, right id (left < right), height, size. Leaves are
   *  0…n−1 and merge i creates cluster n+i. */
  merges: Float64Array;
}

/**
 * n×n distance matrix from a correlation matrix: √(2(1−|ρ|)) (unsigned, the graphs' d) or
 * √(2(1−ρ)) (signed). Diagonal 0. The same expression as numpy's, so the values are bit-identical.
 */
export function correlationDistance(corr: Float64Array, n: number, signed = false): Float64Array {
  const d = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const r = corr[i * n + j];
      const v = Math.sqrt(2 * Math.max(0, 1 - (signed ? r : Math.abs(r))));
      d[i * n + j] = v;
      d[j * n + i] = v;
    }
  }
  return d;
}

/** scipy's Lance–Williams update for ward (`_hierarchy_distance_update.pxi`), the same operations in the same order. */
function ward(dxi: number, dyi: number, dxy: number, nx: number, ny: number, ni: number): number {
  const t = 1.0 / (nx + ny + ni);
  return Math.sqrt((ni + nx) * t * dxi * dxi + (ni + ny) * t * dyi * dyi - ni * t * dxy * dxy);
}

/**
 * scipy's linkage matrix of the n×n distance matrix (only the upper triangle is read, as
 * scipy reads the condensed form). Throws on a non-finite distance, as scipy does.
 */
export function linkage(dist: Float64Array, n: number, method: LinkageMethod): Linkage {
  if (n < 2) return { merges: new Float64Array(0) };
  const ws = workspace(n);
  // Unsorted merges as slot pairs (x, y, height); relabelled after the sort.
  let raw: Float64Array;
  if (method === "single") raw = mstSingle(dist, n, ws);
  else {
    // The NN chain rewrites distances: a symmetric working copy of the upper triangle.
    const D = ws.D;
    for (let i = 0; i < n; i++) {
      D[i * n + i] = 0;
      for (let j = i + 1; j < n; j++) {
        const v = dist[i * n + j];
        if (!Number.isFinite(v)) nonFinite(i, j, v);
        D[i * n + j] = v;
        D[j * n + i] = v;
      }
    }
    raw = nnChain(D, n, method, ws);
  }
  return { merges: sortAndLabel(raw, n, ws) };
}

function nonFinite(i: number, j: number, v: number): never {
  throw new RangeError(`linkage: distance (${i}, ${j}) is ${v}`);
}

/** Scratch arrays of linkage(), kept for the next call of the same n up to CACHED_MAX_N (0.5 MB there). */
interface Workspace {
  n: number;
  D: Float64Array;
  raw: Float64Array;
  best: Float64Array;
  merged: Uint8Array;
  size: Int32Array;
  live: Int32Array;
  chain: Int32Array;
  key: Float64Array;
  a: Int32Array;
  b: Int32Array;
  parent: Int32Array;
  csize: Int32Array;
}
let cached: Workspace | null = null;
const CACHED_MAX_N = 256;

function workspace(n: number): Workspace {
  if (cached !== null && cached.n === n) return cached;
  const ws: Workspace = {
    n,
    D: new Float64Array(n * n),
    raw: new Float64Array((n - 1) * 3),
    best: new Float64Array(n),
    merged: new Uint8Array(n),
    size: new Int32Array(n),
    live: new Int32Array(n),
    chain: new Int32Array(n),
    key: new Float64Array(n),
    a: new Int32Array(n),
    b: new Int32Array(n),
    parent: new Int32Array(2 * n - 1),
    csize: new Int32Array(2 * n - 1),
  };
  if (n <= CACHED_MAX_N) cached = ws;
  return ws;
}

/**
 * scipy's `mst_single_linkage`: Prim from node 0, the first of equal minima kept. It reads each
 * pair once, straight from the upper triangle of `dist` (no working copy), checking it there.
 */
function mstSingle(dist: Float64Array, n: number, ws: Workspace): Float64Array {
  const Z = ws.raw;
  const merged = ws.merged.fill(0);
  const best = ws.best.fill(Infinity);
  let x = 0;
  let y = 0;
  for (let k = 0; k < n - 1; k++) {
    let currentMin = Infinity;
    merged[x] = 1;
    for (let i = 0; i < n; i++) {
      if (merged[i]) continue;
      const d = i > x ? dist[x * n + i] : dist[i * n + x];
      if (!Number.isFinite(d)) nonFinite(Math.min(x, i), Math.max(x, i), d);
      if (best[i] > d) best[i] = d;
      if (best[i] < currentMin) {
        y = i;
        currentMin = best[i];
      }
    }
    Z[k * 3] = x;
    Z[k * 3 + 1] = y;
    Z[k * 3 + 2] = currentMin;
    x = y;
  }
  return Z;
}

/**
 * scipy's `nn_chain`: follow nearest neighbours (the chain's previous element preferred on a tie,
 * else the lowest index) until two are mutual, merge them into the higher slot. The live slots
 * are kept in an ascending list, so a scan visits them in scipy's order without skipping dead ones.
 */
function nnChain(D: Float64Array, n: number, method: LinkageMethod, ws: Workspace): Float64Array {
  const Z = ws.raw;
  const size = ws.size.fill(1);
  const live = ws.live;
  for (let i = 0; i < n; i++) live[i] = i;
  let nLive = n;
  const chain = ws.chain;
  let chainLength = 0;
  let x = 0;
  let y = 0;
  for (let k = 0; k < n - 1; k++) {
    if (chainLength === 0) {
      chainLength = 1;
      chain[0] = live[0];
    }
    let currentMin: number;
    for (;;) {
      x = chain[chainLength - 1];
      if (chainLength > 1) {
        y = chain[chainLength - 2];
        currentMin = D[x * n + y];
      } else currentMin = Infinity;
      const row = x * n;
      for (let q = 0; q < nLive; q++) {
        const i = live[q];
        const d = D[row + i];
        if (d < currentMin && i !== x) {
          currentMin = d;
          y = i;
        }
      }
      if (chainLength > 1 && y === chain[chainLength - 2]) break;
      chain[chainLength++] = y;
    }
    chainLength -= 2;
    if (x > y) {
      const t = x;
      x = y;
      y = t;
    }
    const nx = size[x];
    const ny = size[y];
    Z[k * 3] = x;
    Z[k * 3 + 1] = y;
    Z[k * 3 + 2] = currentMin;
    size[x] = 0;
    size[y] = nx + ny;
    let q = 0;
    while (live[q] !== x) q++;
    live.copyWithin(q, q + 1, nLive--);
    const rx = x * n;
    const ry = y * n;
    // One loop per method keeps the update inline; each is scipy's expression (average: (nx·dxi + ny·dyi)/(nx+ny),
    // complete: max), operation for operation.
    if (method === "average") {
      for (let p = 0; p < nLive; p++) {
        const i = live[p];
        if (i === y) continue;
        const v = (nx * D[rx + i] + ny * D[ry + i]) / (nx + ny);
        D[i * n + y] = v;
        D[ry + i] = v;
      }
    } else if (method === "complete") {
      for (let p = 0; p < nLive; p++) {
        const i = live[p];
        if (i === y) continue;
        const v = Math.max(D[rx + i], D[ry + i]);
        D[i * n + y] = v;
        D[ry + i] = v;
      }
    } else {
      for (let p = 0; p < nLive; p++) {
        const i = live[p];
        if (i === y) continue;
        const v = ward(D[rx + i], D[ry + i], currentMin, nx, ny, size[i]);
        D[i * n + y] = v;
        D[ry + i] = v;
      }
    }
  }
  return Z;
}

/**
 * numpy's stable argsort by height (NaN last, as numpy sorts it), then scipy's `label`: each
 * merge's two slots are mapped to their current cluster ids through a union-find, smaller id left.
 */
function sortAndLabel(raw: Float64Array, n: number, ws: Workspace): Float64Array {
  const m = n - 1;
  const order = stableOrder(raw, m, ws);
  const { parent, csize } = ws;
  for (let i = 0; i < 2 * n - 1; i++) parent[i] = i;
  csize.fill(1);
  const find = (v: number) => {
    let root = v;
    while (parent[root] !== root) root = parent[root];
    while (parent[v] !== root) {
      const next = parent[v];
      parent[v] = root;
      v = next;
    }
    return root;
  };
  const Z = new Float64Array(m * 4);
  for (let i = 0; i < m; i++) {
    const k = order[i];
    const a = find(raw[k * 3]);
    const b = find(raw[k * 3 + 1]);
    const label = n + i;
    Z[i * 4] = Math.min(a, b);
    Z[i * 4 + 1] = Math.max(a, b);
    Z[i * 4 + 2] = raw[k * 3 + 2];
    parent[a] = label;
    parent[b] = label;
    csize[label] = csize[a] + csize[b];
    Z[i * 4 + 3] = csize[label];
  }
  return Z;
}

/** Indices 0…m−1 by height raw[3k+2], stable, NaN last: numpy's argsort(kind="mergesort"). */
function stableOrder(raw: Float64Array, m: number, ws: Workspace): Int32Array {
  const key = ws.key;
  let a = ws.a;
  let b = ws.b;
  for (let k = 0; k < m; k++) {
    const h = raw[k * 3 + 2];
    key[k] = Number.isNaN(h) ? Infinity : h;
    a[k] = k;
  }
  // Bottom-up merge sort; on equal keys the left run's (earlier) index goes first.
  for (let width = 1; width < m; width *= 2) {
    for (let lo = 0; lo < m; lo += 2 * width) {
      const mid = Math.min(lo + width, m);
      const hi = Math.min(lo + 2 * width, m);
      let i = lo;
      let j = mid;
      let o = lo;
      while (i < mid && j < hi) b[o++] = key[a[j]] < key[a[i]] ? a[j++] : a[i++];
      while (i < mid) b[o++] = a[i++];
      while (j < hi) b[o++] = a[j++];
    }
    [a, b] = [b, a];
  }
  return a;
}

/** scipy's `leaves_list` (= the default `dendrogram` leaf order): leaves left to right, left child first. */
export function leafOrder(link: Linkage, n: number): Int32Array {
  const out = new Int32Array(n);
  if (n < 2) return out;
  const Z = link.merges;
  const stack = new Int32Array(n + 1);
  let top = 0;
  stack[top++] = 2 * n - 2;
  let k = 0;
  while (top > 0) {
    const v = stack[--top];
    if (v < n) {
      out[k++] = v;
      continue;
    }
    const r = v - n;
    stack[top++] = Z[r * 4 + 1];
    stack[top++] = Z[r * 4];
  }
  return out;
}

/**
 * `fcluster(Z, k, criterion="maxclust")`: labels 1…c (c ≤ k clusters) at the lowest height
 * that leaves at most k clusters, numbered in scipy's traversal order. Follows scipy ≥ 1.15
 * (gh-12651): k ≥ n gives every leaf its own cluster; Debian's scipy 1.10 differs only for k ≥ n−1.
 */
export function flatClusters(link: Linkage, n: number, k: number): Int32Array {
  if (!(k >= 1)) throw new RangeError(`flatClusters: k must be at least 1, got ${k}`);
  const T = new Int32Array(n);
  if (k >= n) {
    for (let i = 0; i < n; i++) T[i] = i + 1;
    return T;
  }
  const Z = link.merges;
  // Highest merge height in each merge's subtree (scipy's get_max_dist_for_each_cluster);
  // children are earlier rows, so one forward pass suffices.
  const MC = new Float64Array(n - 1);
  for (let i = 0; i < n - 1; i++) {
    let m = Z[i * 4 + 2];
    const l = Z[i * 4];
    const r = Z[i * 4 + 1];
    if (l >= n && MC[l - n] > m) m = MC[l - n];
    if (r >= n && MC[r - n] > m) m = MC[r - n];
    MC[i] = m;
  }
  // The bisection of scipy's cluster_maxclust_monocrit. MC never decreases from child to parent,
  // so the subtrees under a threshold are closed downwards and the clusters number n minus
  // the merges under it (scipy counts them by a traversal; the count is the same).
  let lower = -1;
  let upper = n - 1;
  while (upper - lower > 1) {
    const i = (lower + upper) >> 1;
    const thresh = MC[i];
    let merges = 0;
    for (let q = 0; q < n - 1; q++) if (MC[q] <= thresh) merges++;
    if (n - merges > k) lower = i;
    else upper = i;
  }
  monocrit(Z, MC, T, MC[upper], n);
  return T;
}

/** scipy's `cluster_monocrit`: depth-first from the root, inner children first, numbering clusters as met. */
function monocrit(Z: Float64Array, MC: Float64Array, T: Int32Array, cutoff: number, n: number): void {
  const curr = new Int32Array(n);
  const visited = new Uint8Array(2 * n - 1);
  let nCluster = 0;
  let leader = -1;
  let k = 0;
  curr[0] = 2 * n - 2;
  while (k >= 0) {
    const root = curr[k] - n;
    const lc = Z[root * 4];
    const rc = Z[root * 4 + 1];
    if (leader === -1 && MC[root] <= cutoff) {
      leader = root;
      nCluster++;
    }
    if (lc >= n && !visited[lc]) {
      visited[lc] = 1;
      curr[++k] = lc;
      continue;
    }
    if (rc >= n && !visited[rc]) {
      visited[rc] = 1;
      curr[++k] = rc;
      continue;
    }
    if (lc < n) {
      if (leader === -1) nCluster++;
      T[lc] = nCluster;
    }
    if (rc < n) {
      if (leader === -1) nCluster++;
      T[rc] = nCluster;
    }
    if (leader === root) leader = -1;
    k--;
  }
}
