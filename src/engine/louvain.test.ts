import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { correlationMatrix } from "./correlation.ts";
import { factorReturns } from "../../test/support/engine/random-returns.ts";
import { buildGraph, graphFromPairs } from "./graph.ts";
import { louvain } from "./louvain.ts";
import { modularity } from "./modularity.ts";
import { GRAPH_METHODS } from "./types.ts";

describe("louvain", () => {
  test("partitions the nodes; ids 0..k-1, largest first, ties by earliest member; modularity is that partition's", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 16 }),
        fc.integer({ min: 5, max: 40 }),
        fc.integer(),
        fc.constantFrom(...GRAPH_METHODS),
        (n, L, seed, method) => {
          const g = buildGraph(correlationMatrix(factorReturns(n, L, seed), "pearson"), n, method, { knnK: 2, threshold: 0.3 });
          const { community, count, modularity: q } = louvain(g);
          expect(community.length).toBe(n);
          const size = new Array(count).fill(0);
          const first = new Array(count).fill(n);
          community.forEach((c, v) => {
            expect(c).toBeGreaterThanOrEqual(0);
            expect(c).toBeLessThan(count);
            size[c]++;
            first[c] = Math.min(first[c], v);
          });
          for (let c = 1; c < count; c++) {
            expect(size[c]).toBeGreaterThan(0);
            expect(size[c - 1] > size[c] || (size[c - 1] === size[c] && first[c - 1] < first[c])).toBe(true);
          }
          if (g.src.length === 0) expect(q).toBeNaN();
          else {
            expect(q).toBe(modularity(g, community));
            // Never worse than leaving every node alone.
            expect(q).toBeGreaterThanOrEqual(
              modularity(
                g,
                Int32Array.from({ length: n }, (_, v) => v),
              ) - 1e-12,
            );
          }
        },
      ),
    );
  });

  test("finds two planted cliques joined by one weak edge", () => {
    // Nodes 0-3 and 4-7 are strongly tied inside, weakly across: the best split is obvious.
    const n = 8;
    const corr = new Float64Array(n * n).fill(0.05);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i < 4 === j < 4) corr[i * n + j] = 0.9;
    const pairs: number[] = [];
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (i < 4 === j < 4 || (i === 3 && j === 4)) pairs.push(i, j);
    const { community, count } = louvain(graphFromPairs(corr, n, pairs));
    expect(count).toBe(2);
    expect([...community]).toEqual([0, 0, 0, 0, 1, 1, 1, 1]);
  });

  test("is deterministic: the same graph gives the same communities", () => {
    const g = buildGraph(correlationMatrix(factorReturns(30, 60, 5), "pearson"), 30, "knn", { knnK: 3, threshold: 0 });
    expect([...louvain(g).community]).toEqual([...louvain(g).community]);
  });
});
