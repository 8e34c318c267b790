import type { Graph } from "../../src/engine/graph.ts";
import { visitOrders } from "../../src/engine/louvain.ts";
import { aggregate, compactLabels, identity, LevelScratch, levelFromGraph, oneLevel } from "../../src/engine/louvain-level.ts";
import { modularity } from "../../src/engine/modularity.ts";

/**
 * The Louvain rule of src/engine/louvain.ts run literally: every order and round runs all its levels itself
 * (no first levels shared between them) with fresh scratch arrays for every level.
 */
export function literalLouvain(g: Graph): { labels: Int32Array; mod: number } {
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
