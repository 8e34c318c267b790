import { describe, expect, test } from "bun:test";
import { CommunityTracker } from "./community-tracking.ts";
import { mulberry32 } from "../../test/support/engine/random-returns.ts";

/** Tracks one partition given as symbol -> Louvain id (symbols absent at this as-of are left out). */
function step(t: CommunityTracker, partition: Record<number, number>): Record<number, number> {
  const nodes = Object.keys(partition).map(Number);
  const community = Int32Array.from(nodes, (i) => partition[i]);
  const count = Math.max(...community) + 1;
  const labels = t.track(nodes, community, count);
  return Object.fromEntries(nodes.map((i, p) => [i, labels[p]]));
}

describe("CommunityTracker", () => {
  test("the first as-of keeps Louvain's ids; a persisting group keeps its label when Louvain renumbers it", () => {
    const t = new CommunityTracker(6);
    expect(step(t, { 0: 0, 1: 0, 2: 0, 3: 1, 4: 1, 5: 1 })).toEqual({ 0: 0, 1: 0, 2: 0, 3: 1, 4: 1, 5: 1 });
    // Louvain now numbers {3,4,5,0} first: the group with most of {3,4,5} keeps label 1.
    expect(step(t, { 0: 0, 1: 1, 2: 1, 3: 0, 4: 0, 5: 0 })).toEqual({ 0: 1, 1: 0, 2: 0, 3: 1, 4: 1, 5: 1 });
  });

  test("a split keeps the label on the larger part; the other part gets a fresh label", () => {
    const t = new CommunityTracker(6);
    step(t, { 0: 0, 1: 0, 2: 0, 3: 0, 4: 1, 5: 1 });
    expect(step(t, { 0: 0, 1: 0, 2: 0, 3: 1, 4: 2, 5: 2 })).toEqual({ 0: 0, 1: 0, 2: 0, 3: 2, 4: 1, 5: 1 });
  });

  test("a label that disappears is never reused", () => {
    const t = new CommunityTracker(4);
    step(t, { 0: 0, 1: 0, 2: 1, 3: 1 }); // labels 0, 1
    step(t, { 0: 0, 1: 0, 2: 0, 3: 0 }); // merged into label 0; label 1 is gone
    expect(step(t, { 0: 0, 1: 0, 2: 1, 3: 1 })).toEqual({ 0: 0, 1: 0, 2: 2, 3: 2 });
  });

  test("a symbol absent at an as-of does not carry its label into the overlap", () => {
    const t = new CommunityTracker(4);
    step(t, { 0: 0, 1: 0, 2: 1, 3: 1 });
    expect(step(t, { 0: 0, 1: 0, 3: 1 })).toEqual({ 0: 0, 1: 0, 3: 1 });
    expect(step(t, { 0: 0, 1: 1, 2: 1, 3: 1 })).toEqual({ 0: 0, 1: 1, 2: 1, 3: 1 });
  });

  test("property: never merges two current communities, never splits one, labels only grow fresh", () => {
    const rand = mulberry32(7);
    for (let run = 0; run < 200; run++) {
      const n = 3 + Math.floor(rand() * 20);
      const t = new CommunityTracker(n);
      const seen = new Set<number>();
      for (let date = 0; date < 8; date++) {
        const k = 1 + Math.floor(rand() * 5);
        const partition: Record<number, number> = {};
        for (let i = 0; i < n; i++) if (rand() > 0.1) partition[i] = Math.floor(rand() * k);
        // compact ids to 0..count-1 as Louvain gives them
        const ids = [...new Set(Object.values(partition))].sort((a, b) => a - b);
        if (ids.length === 0) continue;
        for (const i in partition) partition[i] = ids.indexOf(partition[i]);
        const before = Math.max(-1, ...seen);
        const labels = step(t, partition);
        const labelOf = new Map<number, number>();
        const commOf = new Map<number, number>();
        for (const i in partition) {
          const c = partition[i];
          const l = labels[i];
          if (labelOf.has(c)) expect(labelOf.get(c)).toBe(l); // one label per community
          if (commOf.has(l)) expect(commOf.get(l)).toBe(c); // one community per label: no merge
          labelOf.set(c, l);
          commOf.set(l, c);
          // a label not used before is above every earlier label
          if (!seen.has(l)) expect(l).toBeGreaterThan(before);
        }
        for (const l of commOf.keys()) seen.add(l);
      }
    }
  });
});
