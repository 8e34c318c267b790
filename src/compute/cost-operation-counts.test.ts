/**
 * The worst-case methods are priced from operation counts (docs/api.md § Request cost): the cost
 * model's count of a stage's operations is at least what the engine does on real shapes, counted
 * as the engine runs (no clock). PMFG: its left-right planarity tests, from the counts pmfg()
 * reports. Shortest paths: Dijkstra's edge relaxations, counted by reading the graph's edge
 * lengths through a counting view (the engine itself is unchanged). Shapes: returns driven by a
 * common factor (strong correlations) and pure noise (little common structure).
 */
import { describe, expect, test } from "bun:test";
import { parseChartParams } from "../http/params/params.ts";
import { correlationMatrix } from "../engine/correlation.ts";
import { buildGraph, type Graph } from "../engine/graph.ts";
import { dijkstraPathMetrics, SORTED_FRONTIER_MAX } from "../engine/metrics/shortest-paths.ts";
import { pmfg, type PmfgCounts } from "../engine/pmfg.ts";
import { costTerms, maxEdges } from "./request-cost.ts";

const M = 1e6;
const L = 120;

const params = (q: string) => {
  const p = parseChartParams(new URLSearchParams(q), { defaultUniverse: "x" });
  if (!p.ok) throw new Error(p.errors.join("; "));
  return p.params;
};

/** n return series of L bars: `factor` of a common factor plus independent noise (0: pure noise), seeded. */
function returns(n: number, factor: number, seed: number): Float64Array[] {
  let s = seed;
  const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647 - 0.5;
  const common = Float64Array.from({ length: L }, rnd);
  return Array.from({ length: n }, (_, i) => {
    const beta = factor * (0.5 + (i % 7) / 7);
    return Float64Array.from(common, (f) => beta * f + rnd());
  });
}

const SHAPES = [
  { name: "factor data", factor: 1.5 },
  { name: "pure noise", factor: 0 },
] as const;

/** Dijkstra's relaxations on g: reads of an edge's length, less the one pass over them that finds each node's shortest. */
function relaxations(g: Graph): number {
  let reads = 0;
  const nbrD = new Proxy(g.nbrD, {
    get(target, key) {
      if (typeof key === "string" && /^\d+$/.test(key)) {
        reads++;
        return target[Number(key)];
      }
      const v = Reflect.get(target, key, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  dijkstraPathMetrics({ ...g, nbrD }, true, true);
  return reads - g.nbrD.length;
}

describe("PMFG is priced at one planarity test per candidate pair", () => {
  for (const n of [40, 150]) {
    test(`${n} symbols: the tests run on factor data and on pure noise are at most the model's, and noise comes near it`, () => {
      const p = params("graph_method=pmfg&periods=1");
      // The model's term is tests × (n + E) elements, each test over n nodes and at most E edges.
      const modelTests = (costTerms(p, n, 1).graph_pmfg_tests * M) / (n + maxEdges(p, n));
      expect(Math.round(modelTests)).toBe((n * (n - 1)) / 2);
      const [factor, noise] = SHAPES.map((shape) => {
        const counts: PmfgCounts = { bridges: 0, faceKept: 0, rigidRefused: 0, tests: 0, testKept: 0, merges: 0, pairJoins: 0 };
        pmfg(correlationMatrix(returns(n, shape.factor, 11 + n), "pearson"), n, counts);
        return counts.tests;
      }) as [number, number];
      for (const tests of [factor, noise]) {
        expect(tests).toBeGreaterThan(0);
        expect(tests).toBeLessThanOrEqual(modelTests);
      }
      // Why the worst case: how many pairs reach a test is the data's, few on factor data, a large share on noise.
      expect(factor).toBeLessThan(modelTests / 20);
      expect(noise).toBeGreaterThan(modelTests / 3);
    });
  }
});

describe("shortest paths are priced at E relaxations from each end per source", () => {
  const methods = ["threshold&corr_threshold=0", "threshold&corr_threshold=0.2", "knn&knn_k=5", "tmfg", "pmfg"];
  // Both frontier forms: the sorted array up to SORTED_FRONTIER_MAX nodes, the buckets above.
  for (const n of [40, SORTED_FRONTIER_MAX + 24]) {
    for (const shape of SHAPES) {
      test(`${shape.name}, ${n} symbols: ${methods.length} graph methods relax at most the model's count`, () => {
        const corr = correlationMatrix(returns(n, shape.factor, 23 + n), "pearson");
        for (const method of methods) {
          const p = params(`graph_method=${method}&periods=1`);
          const g = buildGraph(corr, n, p.graph_method, { knnK: p.knn_k, threshold: p.corr_threshold });
          // The model's n·E counts each undirected edge once per source; a search relaxes it from both ends.
          const model = 2 * costTerms(p, n, 1).paths_edges * M;
          const done = relaxations(g);
          expect(done, method).toBeGreaterThan(0);
          expect(done, method).toBeLessThanOrEqual(model);
        }
      });
    }
  }
});
