import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { correlationMatrix } from "./correlation.ts";
import { factorReturns } from "../../test/support/engine/random-returns.ts";
import { buildGraph, type Graph } from "./graph.ts";
import { GRAPH_METHODS } from "./types.ts";

const arbCase = fc.record({
  n: fc.integer({ min: 2, max: 12 }),
  L: fc.integer({ min: 5, max: 40 }),
  seed: fc.integer(),
  k: fc.integer({ min: 1, max: 5 }),
  t: fc.double({ min: 0, max: 1, noNaN: true }),
});

function components(g: Graph): number {
  const seen = new Uint8Array(g.n);
  let count = 0;
  for (let s = 0; s < g.n; s++) {
    if (seen[s]) continue;
    count++;
    const stack = [s];
    seen[s] = 1;
    while (stack.length) {
      const v = stack.pop()!;
      for (let p = g.offsets[v]; p < g.offsets[v + 1]; p++)
        if (!seen[g.nbr[p]]) {
          stack.push(g.nbr[p]);
          seen[g.nbr[p]] = 1;
        }
    }
  }
  return count;
}

describe("buildGraph", () => {
  test("edge list is sorted (src < dst) and the CSR holds each edge both ways, rows ascending", () => {
    fc.assert(
      fc.property(arbCase, fc.constantFrom(...GRAPH_METHODS), ({ n, L, seed, k, t }, method) => {
        const corr = correlationMatrix(factorReturns(n, L, seed), "pearson");
        const g = buildGraph(corr, n, method, { knnK: k, threshold: t });
        for (let e = 0; e < g.src.length; e++) {
          expect(g.src[e]).toBeLessThan(g.dst[e]);
          if (e > 0) expect(g.src[e - 1] * n + g.dst[e - 1]).toBeLessThan(g.src[e] * n + g.dst[e]);
          expect(g.corr[e]).toBe(corr[g.src[e] * n + g.dst[e]]);
          expect(g.w[e]).toBe(Math.abs(g.corr[e]));
          expect(g.d[e]).toBe(Math.sqrt(2 * (1 - g.w[e])));
        }
        expect(g.nbr.length).toBe(2 * g.src.length);
        for (let v = 0; v < n; v++) for (let p = g.offsets[v] + 1; p < g.offsets[v + 1]; p++) expect(g.nbr[p - 1]).toBeLessThan(g.nbr[p]);
      }),
    );
  });

  test("complete has every pair; threshold exactly the pairs with |rho| >= t; knn gives each node >= k partners", () => {
    fc.assert(
      fc.property(arbCase, ({ n, L, seed, k, t }) => {
        const corr = correlationMatrix(factorReturns(n, L, seed), "pearson");
        expect(buildGraph(corr, n, "complete", { knnK: k, threshold: t }).src.length).toBe((n * (n - 1)) / 2);
        const th = buildGraph(corr, n, "threshold", { knnK: k, threshold: t });
        let want = 0;
        for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (Math.abs(corr[i * n + j]) >= t) want++;
        expect(th.src.length).toBe(want);
        expect(th.n).toBe(n);
        const knn = buildGraph(corr, n, "knn", { knnK: k, threshold: t });
        for (let v = 0; v < n; v++) expect(knn.offsets[v + 1] - knn.offsets[v]).toBeGreaterThanOrEqual(Math.min(k, n - 1));
      }),
    );
  });

  test("mst is a spanning tree (n-1 edges, connected) that no non-tree edge can improve (cycle property)", () => {
    fc.assert(
      fc.property(arbCase, ({ n, L, seed }) => {
        const corr = correlationMatrix(factorReturns(n, L, seed), "pearson");
        const g = buildGraph(corr, n, "mst", { knnK: 1, threshold: 0 });
        expect(g.src.length).toBe(n - 1);
        expect(components(g)).toBe(1);
        // Removing tree edge e splits the tree in two; every pair across that cut must be at least as long.
        for (let e = 0; e < g.src.length; e++) {
          const side = sideOf(g, e);
          for (let i = 0; i < n; i++)
            for (let j = 0; j < n; j++)
              if (side[i] && !side[j]) expect(Math.sqrt(2 * (1 - Math.abs(corr[i * n + j])))).toBeGreaterThanOrEqual(g.d[e]);
        }
      }),
      { numRuns: 50 },
    );
  });
});

/** Nodes reachable from src[e] without using edge e. */
function sideOf(g: Graph, e: number): Uint8Array {
  const seen = new Uint8Array(g.n);
  const stack = [g.src[e]];
  seen[g.src[e]] = 1;
  while (stack.length) {
    const v = stack.pop()!;
    for (let p = g.offsets[v]; p < g.offsets[v + 1]; p++) {
      const w = g.nbr[p];
      const isE = (v === g.src[e] && w === g.dst[e]) || (v === g.dst[e] && w === g.src[e]);
      if (!isE && !seen[w]) {
        stack.push(w);
        seen[w] = 1;
      }
    }
  }
  return seen;
}
