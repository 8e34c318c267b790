import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { correlationMatrix } from "../correlation.ts";
import { factorReturns } from "../fixtures/random-returns.ts";
import { buildGraph, graphFromPairs } from "../graph.ts";
import { dijkstraPathMetrics, shortestPathMetrics } from "./shortest-paths.ts";
import { treePathMetrics } from "./tree-paths.ts";

describe("shortest-path metrics on trees", () => {
  test("the tree formulas equal Dijkstra: betweenness bit for bit, closeness to the last bits", () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 60 }), fc.integer({ min: 5, max: 60 }), fc.integer(), (n, L, seed) => {
        const g = buildGraph(correlationMatrix(factorReturns(n, L, seed), "pearson"), n, "mst", { knnK: 1, threshold: 0 });
        const tree = treePathMetrics(g, true, true);
        expect(tree).not.toBeNull();
        const ref = dijkstraPathMetrics(g, true, true);
        expect([...tree!.betweenness!]).toEqual([...ref.betweenness!]);
        for (let v = 0; v < n; v++) {
          expect(Math.abs(tree!.closeness![v] - ref.closeness![v])).toBeLessThanOrEqual(1e-14 * ref.closeness![v]);
        }
      }),
      { numRuns: 200 },
    );
  });

  test("trees with a zero-length edge (|rho| = 1) and non-trees go to Dijkstra", () => {
    const n = 6;
    const series = factorReturns(n, 30, 7);
    series[3] = series[2]; // identical series: |rho| = 1, d = 0
    const g = buildGraph(correlationMatrix(series, "pearson"), n, "mst", { knnK: 1, threshold: 0 });
    expect(treePathMetrics(g, true, true)).toBeNull();
    expect(shortestPathMetrics(g, true, true)).toEqual(dijkstraPathMetrics(g, true, true));
    // 4 nodes, 3 edges, but a triangle plus an isolated node: not a tree.
    const corr = new Float64Array(16).fill(0.5);
    const tri = graphFromPairs(corr, 4, [0, 1, 0, 2, 1, 2]);
    expect(treePathMetrics(tri, true, true)).toBeNull();
    expect(shortestPathMetrics(tri, true, true)).toEqual(dijkstraPathMetrics(tri, true, true));
  });
});
