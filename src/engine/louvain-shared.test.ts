import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { correlationMatrix } from "./correlation.ts";
import { factorReturns } from "../../test/support/engine/random-returns.ts";
import { literalLouvain } from "../../test/reference/louvain.ts";
import { buildGraph } from "./graph.ts";
import { louvain } from "./louvain.ts";
import { GRAPH_METHODS } from "./types.ts";

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
