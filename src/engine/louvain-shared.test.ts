import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { correlationMatrix } from "./correlation.ts";
import { factorReturns } from "./fixtures/random-returns.ts";
import { buildGraph, type Graph } from "./graph.ts";
import { louvain, visitOrders } from "./louvain.ts";
import { aggregate, compactLabels, identity, LevelScratch, levelFromGraph, oneLevel } from "./louvain-level.ts";
import { modularity } from "./modularity.ts";
import { GRAPH_METHODS } from "./types.ts";

/**
 * The Louvain rule of louvain.ts run literally: every order and round runs all its levels itself
 * (no first levels shared between them) with fresh scratch arrays for every level.
 */
function literalLouvain(g: Graph): { labels: Int32Array; mod: number } {
  // Written out again on purpose (not imported from louvain.ts): it is the reference.
  const n = g.n;
  let m = 0;
  for (let e = 0; e < g.w.length; e++) m += g.w[e];
  const base = levelFromGraph(g);
  const levels = (start: Int32Array | null, startMod: number, order: Int32Array) => {
    let level = base;
    let assignment = identity(n);
    let mod = startMod;
    let init = start;
    let levelOrder: Int32Array | null = order;
    let movedAny = false;
    for (;;) {
      const { node2com, moved } = oneLevel(level, m, 1, new LevelScratch(n), init, levelOrder);
      init = null;
      levelOrder = null;
      if (!moved) break;
      movedAny = true;
      const count = compactLabels(node2com, level.k);
      const next = Int32Array.from(assignment, (a) => node2com[a]);
      const newMod = modularity(g, next);
      assignment = next;
      const gain = newMod - mod;
      mod = newMod;
      if (gain <= 1e-7) break;
      level = aggregate(level, node2com, count, new LevelScratch(n));
    }
    return movedAny ? { assignment, mod } : null;
  };
  let best = identity(n);
  let bestMod = -Infinity;
  const singletonMod = modularity(g, identity(n));
  for (const order of visitOrders(g.n)) {
    let assignment = identity(n);
    let mod = singletonMod;
    for (let round = 0; round < 20; round++) {
      const next = levels(round === 0 ? null : assignment, mod, order);
      if (next === null || (round > 0 && !(next.mod - mod > 1e-7))) break;
      assignment = next.assignment;
      mod = next.mod;
    }
    if (mod > bestMod + 1e-7) {
      best = assignment;
      bestMod = mod;
    }
  }
  return { labels: best, mod: bestMod };
}

/** Labels renumbered by first appearance, so equal partitions compare equal. */
function canonical(labels: Int32Array): number[] {
  const seen = new Map<number, number>();
  return Array.from(labels, (c) => {
    if (!seen.has(c)) seen.set(c, seen.size);
    return seen.get(c)!;
  });
}

describe("louvain shares first levels across orders and rounds", () => {
  test("same partition and modularity as running every order literally", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 60 }),
        fc.integer({ min: 5, max: 80 }),
        fc.integer(),
        fc.constantFrom(...GRAPH_METHODS),
        fc.boolean(),
        (n, L, seed, method, copy) => {
          const series = factorReturns(n, L, seed);
          if (copy && n > 3) series[3] = series[1]; // |rho| = 1 ties
          const g = buildGraph(correlationMatrix(series, "pearson"), n, method, { knnK: 3, threshold: 0.3 });
          if (g.src.length === 0) return;
          const got = louvain(g);
          const want = literalLouvain(g);
          expect(canonical(got.community)).toEqual(canonical(want.labels));
          // The same partition up to its ids: modularity equal up to the summation order over communities.
          expect(Math.abs(got.modularity - want.mod)).toBeLessThan(1e-12);
        },
      ),
      { numRuns: 150 },
    );
  });
});
