import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { correlationMatrix } from "../correlation.ts";
import { factorReturns, mulberry32 } from "../../../test/support/engine/random-returns.ts";
import { buildGraph, graphFromPairs } from "../graph.ts";
import { dijkstraPathMetrics, shortestPathMetrics, SORTED_FRONTIER_MAX } from "./shortest-paths.ts";
import { treePathMetrics } from "./tree-paths.ts";
import { networkxPaths } from "../../../test/reference/networkx-dijkstra.ts";

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

describe("Dijkstra kernel", () => {
  test("equals a literal networkx port bit for bit, with many equal paths and zero-length edges", () => {
    // |rho| from a few dyadic values: d = sqrt(2(1 - |rho|)) is then 0, 0.25, 0.5 or 1 exactly, so
    // sums of different paths tie exactly and zero-length edges (|rho| = 1) occur.
    const rhos = [1, 0.96875, -0.96875, 0.875, -0.875, 0.5, -0.5];
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 24 }),
        fc.array(fc.integer({ min: 0, max: 2 ** 30 }), { minLength: 600, maxLength: 600 }),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        (n, draws, density) => {
          const corr = new Float64Array(n * n).fill(1);
          const pairs: number[] = [];
          let q = 0;
          for (let i = 0; i < n; i++)
            for (let j = i + 1; j < n; j++) {
              const r = draws[q++ % draws.length];
              corr[i * n + j] = corr[j * n + i] = rhos[r % rhos.length];
              if ((r >>> 8) / 2 ** 22 < density) pairs.push(i, j);
            }
          const g = graphFromPairs(corr, n, pairs);
          const got = dijkstraPathMetrics(g, true, true);
          const want = networkxPaths(g);
          expect([...got.betweenness!]).toEqual(want.betweenness);
          expect([...got.closeness!]).toEqual(want.closeness);
        },
      ),
      { numRuns: 300 },
    );
  });

  test("both frontier forms (sorted array up to SORTED_FRONTIER_MAX nodes, buckets above) equal the networkx port", () => {
    const rhos = [1, 0.96875, -0.96875, 0.875, -0.875, 0.5, -0.5];
    for (const n of [SORTED_FRONTIER_MAX, SORTED_FRONTIER_MAX + 1, 130]) {
      for (let seed = 1; seed <= 3; seed++) {
        const rand = mulberry32(seed * 1000 + n);
        const corr = new Float64Array(n * n).fill(1);
        const pairs: number[] = [];
        for (let i = 0; i < n; i++)
          for (let j = i + 1; j < n; j++) {
            corr[i * n + j] = corr[j * n + i] = rhos[Math.floor(rand() * rhos.length)];
            if (rand() < 0.06) pairs.push(i, j);
          }
        const g = graphFromPairs(corr, n, pairs);
        const got = dijkstraPathMetrics(g, true, true);
        const want = networkxPaths(g);
        expect([...got.betweenness!]).toEqual(want.betweenness);
        expect([...got.closeness!]).toEqual(want.closeness);
      }
    }
  });

  test("the bucket frontier equals the networkx port where its buckets wrap, tie and hold every node", () => {
    const n = 140;
    const rhos = [1, 0.96875, -0.96875, 0.875, -0.875, 0.5, -0.5];
    const cases: [string, Float64Array, number[]][] = [];
    // A ring with chords: distances run to ~70 times the longest edge, so the buckets wrap many times.
    for (let seed = 1; seed <= 3; seed++) {
      const rand = mulberry32(seed);
      const corr = new Float64Array(n * n).fill(1);
      const pairs: number[] = [];
      for (let i = 0; i < n; i++) {
        const j = (i + 1) % n;
        corr[i * n + j] = corr[j * n + i] = rhos[Math.floor(rand() * rhos.length)];
        pairs.push(Math.min(i, j), Math.max(i, j));
      }
      for (let c = 0; c < 6; c++) {
        const i = Math.floor(rand() * n);
        const j = (i + 2 + Math.floor(rand() * (n - 4))) % n;
        corr[i * n + j] = corr[j * n + i] = rhos[Math.floor(rand() * rhos.length)];
        pairs.push(Math.min(i, j), Math.max(i, j));
      }
      cases.push([`ring ${seed}`, corr, pairs]);
    }
    // Every edge of length 0 (|rho| = 1): one bucket holds the whole frontier.
    {
      const corr = new Float64Array(n * n).fill(1);
      const pairs: number[] = [];
      const rand = mulberry32(9);
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (rand() < 0.05) pairs.push(i, j);
      cases.push(["all zero-length", corr, pairs]);
    }
    // Two components and isolated nodes, lengths of very different sizes.
    {
      const corr = new Float64Array(n * n).fill(1);
      const pairs: number[] = [];
      const rand = mulberry32(11);
      for (let i = 0; i < n; i++)
        for (let j = i + 1; j < n; j++) {
          if (i % 2 !== j % 2 || i >= n - 5 || j >= n - 5 || rand() > 0.08) continue;
          corr[i * n + j] = corr[j * n + i] = rand() < 0.5 ? 0.999999 : rhos[Math.floor(rand() * rhos.length)];
          pairs.push(i, j);
        }
      cases.push(["two components", corr, pairs]);
    }
    for (const [name, corr, pairs] of cases) {
      const g = graphFromPairs(corr, n, pairs);
      const got = dijkstraPathMetrics(g, true, true);
      const want = networkxPaths(g);
      expect([...got.betweenness!], name).toEqual(want.betweenness);
      expect([...got.closeness!], name).toEqual(want.closeness);
    }
  }, 60_000);

  test("equals the networkx port on correlation graphs of every method with identical and negated series", () => {
    for (const method of ["complete", "threshold", "knn", "mst"] as const) {
      for (let seed = 1; seed <= 6; seed++) {
        const n = 18;
        const series = factorReturns(n, 40, seed);
        series[4] = series[1]; // rho = 1: a zero-length edge
        series[9] = series[1].map((x) => -x); // |rho| = 1 as well, and equal |rho| to 1 and 4
        series[12] = series[7];
        const g = buildGraph(correlationMatrix(series, "pearson"), n, method, { knnK: 3, threshold: 0.3 });
        const got = dijkstraPathMetrics(g, true, true);
        const want = networkxPaths(g);
        expect([...got.betweenness!]).toEqual(want.betweenness);
        expect([...got.closeness!]).toEqual(want.closeness);
      }
    }
  });
});
