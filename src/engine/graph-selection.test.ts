/**
 * The hand-written graph builders against plain references: Prim (mst) against Kruskal over a
 * stable sort, and top-k selection (knn) against a full stable sort per row, on inputs with many
 * forced ties (quantised |rho|, identical series).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { correlationMatrix } from "./correlation.ts";
import { factorReturns, mulberry32 } from "../../test/support/engine/random-returns.ts";
import { knnReference } from "../../test/reference/knn.ts";
import { kruskalPairs } from "../../test/reference/kruskal.ts";
import { buildGraph } from "./graph.ts";

/** Symmetric n×n matrix, unit diagonal, entries drawn from `levels` distinct values (with both signs). */
function tiedCorr(n: number, seed: number, levels: number): Float64Array {
  const rand = mulberry32(seed);
  const corr = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    corr[i * n + i] = 1;
    for (let j = i + 1; j < n; j++) {
      const v = (Math.floor(rand() * levels) + 1) / (levels + 1);
      corr[i * n + j] = corr[j * n + i] = rand() < 0.5 ? -v : v;
    }
  }
  return corr;
}

function edgeKeys(src: Int32Array, dst: Int32Array): string[] {
  return Array.from(src, (s, e) => `${s}-${dst[e]}`);
}

describe("graph builders against references", () => {
  test("mst (Prim) equals Kruskal on the stably sorted edge list, with many exact ties", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 30 }), fc.integer(), fc.integer({ min: 1, max: 4 }), (n, seed, levels) => {
        const corr = tiedCorr(n, seed, levels);
        const g = buildGraph(corr, n, "mst", { knnK: 1, threshold: 0 });
        const pairs = kruskalPairs(corr, n);
        const want: string[] = [];
        for (let e = 0; e < pairs.length; e += 2) want.push(`${pairs[e]}-${pairs[e + 1]}`);
        expect(edgeKeys(g.src, g.dst)).toEqual(
          want.sort((a, b) => {
            const [ai, aj] = a.split("-").map(Number);
            const [bi, bj] = b.split("-").map(Number);
            return ai - bi || aj - bj;
          }),
        );
      }),
      { numRuns: 300 },
    );
  });

  test("mst equals Kruskal where distinct |rho| round to one length d", () => {
    // 1 − 1e-17 rounds to 1, so d = sqrt(2(1 − |rho|)) is sqrt(2) for both 0 and 1e-17; 0.3 and its
    // neighbour 0.3 − 2^-54 give one d too, and 0.3 − 2^-53 the next one up.
    const values = [0, 1e-17, 0.3, 0.3 - 2 ** -54, 0.3 - 2 ** -53];
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 24 }), fc.integer(), (n, seed) => {
        const rand = mulberry32(seed);
        const corr = new Float64Array(n * n);
        for (let i = 0; i < n; i++) {
          corr[i * n + i] = 1;
          for (let j = i + 1; j < n; j++)
            corr[i * n + j] = corr[j * n + i] = values[Math.floor(rand() * values.length)] * (rand() < 0.5 ? -1 : 1);
        }
        const g = buildGraph(corr, n, "mst", { knnK: 1, threshold: 0 });
        const pairs = kruskalPairs(corr, n);
        const want = new Set<string>();
        for (let e = 0; e < pairs.length; e += 2) want.add(`${pairs[e]}-${pairs[e + 1]}`);
        expect(new Set(edgeKeys(g.src, g.dst))).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  test("mst equals Kruskal on correlation matrices with duplicated series (|rho| = 1 ties)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 20 }), fc.integer(), (n, seed) => {
        const base = factorReturns(n, 30, seed);
        // Every third series repeats its predecessor: exact ties at distance 0 and equal rows.
        const series = base.map((s, i) => (i % 3 === 2 ? base[i - 1] : s));
        const corr = correlationMatrix(series, "pearson");
        const g = buildGraph(corr, n, "mst", { knnK: 1, threshold: 0 });
        const pairs = kruskalPairs(corr, n);
        const want = new Set<string>();
        for (let e = 0; e < pairs.length; e += 2) want.add(`${pairs[e]}-${pairs[e + 1]}`);
        expect(new Set(edgeKeys(g.src, g.dst))).toEqual(want);
      }),
      { numRuns: 200 },
    );
  });

  test("knn (top-k selection) equals a full stable sort per row, with many exact ties", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 30 }),
        fc.integer(),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 8 }),
        (n, seed, levels, k) => {
          const corr = tiedCorr(n, seed, levels);
          const g = buildGraph(corr, n, "knn", { knnK: k, threshold: 0 });
          expect(edgeKeys(g.src, g.dst)).toEqual(knnReference(corr, n, k));
        },
      ),
      { numRuns: 300 },
    );
  });
});
