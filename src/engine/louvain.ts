/**
 * Deterministic Louvain community detection (README.md § How the numbers are computed, step 7):
 * networkx 2.8's `louvain_communities` with three fixed first-level visiting orders instead of a
 * seeded shuffle, so a request always gets the same communities, and the best of the three kept.
 * Why those three, and how they were validated against networkx: docs/engine.md § Louvain.
 */
import type { Graph } from "./graph.ts";
import { aggregate, compactLabels, identity, LevelScratch, levelFromGraph, oneLevel, type Level } from "./louvain-level.ts";
import { modularity } from "./modularity.ts";

const THRESHOLD = 1e-7;
const MAX_ROUNDS = 20;

/** The first level's partition (compacted labels) and what follows from it, shared by all orders and rounds. */
interface FirstLevel {
  labels: Int32Array;
  count: number;
  /** modularity(g, labels) */
  mod: number;
  /** The result of the higher levels started from labels, once computed. */
  upper: Partition | null;
}

interface Partition {
  assignment: Int32Array;
  count: number;
  mod: number;
}

/** What one louvain() call shares across its visiting orders and rounds. */
interface Run {
  g: Graph;
  base: Level;
  m: number;
  resolution: number;
  scratch: LevelScratch;
  firstLevels: FirstLevel[];
}

function sameLabels(a: Int32Array, b: Int32Array): boolean {
  for (let v = 0; v < a.length; v++) if (a[v] !== b[v]) return false;
  return true;
}

/**
 * The Louvain levels: local moves, aggregate, repeat while modularity improves by more than THRESHOLD.
 * start: an initial partition of the original nodes (labels 0..k-1), or null for singletons;
 * startMod = modularity(g, start ?? singletons). Returns null when no node moves at all.
 * The levels after the first depend only on the first level's partition, so they are computed
 * once per distinct partition and shared by the orders and rounds.
 */
function levels(run: Run, start: Int32Array | null, startMod: number, order: Int32Array): Partition | null {
  const { g, base, m, resolution, scratch } = run;
  const { node2com, moved } = oneLevel(base, m, resolution, scratch, start, order);
  if (!moved) return null;
  const count = compactLabels(node2com, base.k);
  let first = run.firstLevels.find((f) => sameLabels(f.labels, node2com));
  if (first === undefined) {
    first = { labels: node2com, count, mod: modularity(g, node2com, resolution), upper: null };
    run.firstLevels.push(first);
  }
  if (first.mod - startMod <= THRESHOLD) return { assignment: first.labels, count, mod: first.mod };
  first.upper ??= upperLevels(run, first);
  return first.upper;
}

/** Levels 2, 3, … after a first level whose modularity gain exceeded THRESHOLD. */
function upperLevels(run: Run, first: FirstLevel): Partition {
  const { g, m, resolution, scratch } = run;
  let assignment = first.labels;
  let count = first.count;
  let mod = first.mod;
  let level = aggregate(run.base, first.labels, first.count, scratch);
  for (;;) {
    const { node2com, moved } = oneLevel(level, m, resolution, scratch, null, null);
    if (!moved) break;
    const levelCount = compactLabels(node2com, level.k);
    const next = new Int32Array(assignment.length);
    for (let v = 0; v < next.length; v++) next[v] = node2com[assignment[v]];
    const newMod = modularity(g, next, resolution);
    assignment = next;
    count = levelCount;
    const gain = newMod - mod;
    mod = newMod;
    if (gain <= THRESHOLD) break;
    level = aggregate(level, node2com, levelCount, scratch);
  }
  // mod is modularity(g, assignment) of the returned assignment: the last value computed.
  return { assignment, count, mod };
}

/** Ids ordered by size, largest first, ties by earliest member index. */
function orderCommunities(labels: Int32Array, count: number): Int32Array {
  const size = new Int32Array(count);
  const first = new Int32Array(count).fill(labels.length);
  labels.forEach((c, v) => {
    size[c]++;
    if (v < first[c]) first[c] = v;
  });
  const order = Array.from({ length: count }, (_, c) => c).sort((a, b) => size[b] - size[a] || first[a] - first[b]);
  const rank = new Int32Array(count);
  for (let r = 0; r < order.length; r++) rank[order[r]!] = r;
  return labels.map((c) => rank[c]);
}

/** Louvain levels, then rounds restarted from the previous result until modularity stops rising. */
function refinedLevels(run: Run, singletonMod: number, order: Int32Array): Partition {
  let assignment: Int32Array = identity(run.g.n);
  let count = run.g.n;
  let mod = singletonMod;
  // Rounds after the first restart the local moves of single nodes from the previous result,
  // which repairs nodes that an early merge placed badly.
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const next = levels(run, round === 0 ? null : assignment, mod, order);
    if (next === null) break;
    const newMod = next.mod;
    if (round > 0 && !(newMod - mod > THRESHOLD)) break;
    assignment = next.assignment;
    count = next.count;
    mod = newMod;
  }
  return { assignment, count, mod };
}

/** The three first-level visiting orders of the rule above, response order first (it wins ties). */
export function visitOrders(n: number): Int32Array[] {
  const rotation = (shift: number) => {
    const out = new Int32Array(n);
    for (let q = 0; q < n; q++) out[q] = (q + shift) % n;
    return out;
  };
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  // q -> q·s mod n with s coprime to n visits every node once, spread across the response order.
  const stride = (fraction: number) => {
    let s = Math.max(1, Math.round(n * fraction));
    while (gcd(s, n) !== 1) s++;
    const out = new Int32Array(n);
    for (let q = 0; q < n; q++) out[q] = (q * s) % n;
    return out;
  };
  return [identity(n), rotation(Math.floor((4 * n) / 7)), stride(0.618)];
}

/**
 * Deterministic Louvain on w (resolution 1, fixed node visiting orders led by response order, no randomness).
 * community ids 0..count-1, largest community first, ties by earliest member index.
 * modularity: networkx's modularity of that partition; NaN when the graph has no edges.
 */
export function louvain(g: Graph): { community: Int32Array; count: number; modularity: number } {
  const n = g.n;
  let m = 0;
  for (let e = 0; e < g.w.length; e++) m += g.w[e];
  const singletons = identity(n);
  if (!(m > 0)) return { community: singletons, count: n, modularity: NaN };
  const resolution = 1;
  let best: Int32Array = singletons;
  let bestCount = n;
  let bestMod = -Infinity;
  const run: Run = { g, base: levelFromGraph(g), m, resolution, scratch: new LevelScratch(n), firstLevels: [] };
  const singletonMod = modularity(g, singletons, resolution);
  for (const order of visitOrders(n)) {
    const r = refinedLevels(run, singletonMod, order);
    if (r.mod > bestMod + THRESHOLD) {
      best = r.assignment;
      bestCount = r.count;
      bestMod = r.mod;
    }
  }
  const assignment = best;
  const count = bestCount;
  const community = orderCommunities(assignment, count);
  return { community, count, modularity: modularity(g, community, resolution) };
}
