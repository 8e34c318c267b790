import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { correlationMatrix } from "../correlation.ts";
import { factorReturns } from "../../../test/support/engine/random-returns.ts";
import { buildGraph, graphFromPairs } from "../graph.ts";
import { GRAPH_METHODS } from "../types.ts";
import { pagerank, pagerankBySolve, pagerankPowerIteration, SOLVE_MAX_AVG_DEGREE, SOLVE_MAX_COMPONENT } from "./pagerank.ts";

const maxDiff = (a: Float64Array, b: Float64Array) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

describe("pagerank: the linear solve and networkx's power iteration agree", () => {
  test("on correlation graphs of every method, with isolated nodes, within 1e-10", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: SOLVE_MAX_COMPONENT }),
        fc.integer({ min: 5, max: 80 }),
        fc.integer(),
        fc.constantFrom(...GRAPH_METHODS),
        fc.double({ min: 0, max: 0.9, noNaN: true }),
        (n, L, seed, method, threshold) => {
          const g = buildGraph(correlationMatrix(factorReturns(n, L, seed), "pearson"), n, method, { knnK: 2, threshold });
          const solved = pagerankBySolve(g)!;
          const iterated = pagerankPowerIteration(g)!;
          expect(maxDiff(solved, iterated)).toBeLessThan(1e-10);
          expect(solved.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("with zero-weight edges (rho = 0: edges that carry nothing, dangling ends)", () => {
    const n = 5;
    const corr = new Float64Array(n * n).fill(0);
    for (let i = 0; i < n; i++) corr[i * n + i] = 1;
    corr[0 * n + 1] = corr[1 * n + 0] = 0.7;
    corr[1 * n + 2] = corr[2 * n + 1] = -0.4;
    const g = graphFromPairs(corr, n, [0, 1, 1, 2, 2, 3, 3, 4]); // 2–3 and 3–4 have weight 0
    expect(maxDiff(pagerankBySolve(g)!, pagerankPowerIteration(g)!)).toBeLessThan(1e-10);
  });

  test("the solve declines components over SOLVE_MAX_COMPONENT nodes; pagerank then iterates", () => {
    const n = SOLVE_MAX_COMPONENT + 1;
    const g = buildGraph(correlationMatrix(factorReturns(n, 40, 3), "pearson"), n, "mst", { knnK: 1, threshold: 0 });
    expect(pagerankBySolve(g)).toBeNull();
    expect([...pagerank(g)!]).toEqual([...pagerankPowerIteration(g)!]);
  });

  test("pagerank solves sparse or disconnected graphs and iterates on dense connected ones", () => {
    const n = 30;
    const corr = correlationMatrix(factorReturns(n, 60, 11), "pearson");
    const sparse = buildGraph(corr, n, "mst", { knnK: 1, threshold: 0 });
    expect(sparse.nbr.length).toBeLessThanOrEqual(SOLVE_MAX_AVG_DEGREE * n);
    expect([...pagerank(sparse)!]).toEqual([...pagerankBySolve(sparse)!]);
    const dense = buildGraph(corr, n, "complete", { knnK: 1, threshold: 0 });
    expect(dense.nbr.length).toBeGreaterThan(SOLVE_MAX_AVG_DEGREE * n);
    expect([...pagerank(dense)!]).toEqual([...pagerankPowerIteration(dense)!]);
    // Dense but in several components (a high threshold leaves isolated nodes): solved.
    const split = buildGraph(corr, n, "threshold", { knnK: 1, threshold: 0.35 });
    expect(split.nbr.length).toBeGreaterThan(SOLVE_MAX_AVG_DEGREE * n);
    expect(pagerankBySolve(split, 0.85, false)).not.toBeNull();
    expect([...pagerank(split)!]).toEqual([...pagerankBySolve(split)!]);
  });
});
