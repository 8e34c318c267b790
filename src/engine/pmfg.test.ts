/**
 * PMFG properties on random correlation matrices (fast-check): 3(n−2) distinct edges, planar
 * (Euler's bound and the planarity test, itself checked in planarity.test.ts), maximal (any further
 * edge breaks planarity), contains the mst graph, and equal to the literal algorithm — every
 * candidate tested on the whole graph, none of pmfg.ts's shortcuts.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { factorReturns, mulberry32 } from "../../test/support/engine/random-returns.ts";
import { correlationMatrix } from "./correlation.ts";
import { graphFromPairs, mstPairs } from "./graph.ts";
import { isPlanar, PlanarityTester } from "./planarity.ts";
import { type PmfgCounts, pmfg } from "./pmfg.ts";

/** The paper's loop, literally: sort by (d, i, j), add, test the whole graph, stop at 3(n−2). */
function literalPmfg(corr: Float64Array, n: number): number[] {
  if (n <= 4) return Array.from({ length: n }, (_, i) => Array.from({ length: n - i - 1 }, (_, k) => [i, i + k + 1]).flat()).flat();
  const cand: [number, number, number][] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) cand.push([Math.sqrt(2 * (1 - Math.abs(corr[i * n + j]))), i, j]);
  cand.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  const pairs: number[] = [];
  const target = 3 * (n - 2);
  for (const [, i, j] of cand) {
    if (pairs.length / 2 === target) break;
    if (isPlanar(n, [...pairs, i, j])) pairs.push(i, j);
  }
  return pairs;
}

/** A correlation-like matrix: from factor returns, or with |ρ| on a coarse grid (many exact ties). */
function randomCorr(n: number, seed: number, tied: boolean): Float64Array {
  const c = correlationMatrix(factorReturns(n, 40, seed), "pearson");
  if (!tied) return c;
  const rand = mulberry32(seed);
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const r = Math.round(rand() * 4) / 4 - (rand() < 0.5 ? 0 : 0.75);
      c[i * n + j] = c[j * n + i] = r;
    }
  return c;
}

function checkPmfg(corr: Float64Array, n: number): void {
  const { pairs } = pmfg(corr, n);
  const m = pairs.length / 2;
  expect(m).toBe(n <= 2 ? (n * (n - 1)) / 2 : 3 * (n - 2));
  const keys = new Set<number>();
  for (let e = 0; e < pairs.length; e += 2) {
    expect(pairs[e]).toBeLessThan(pairs[e + 1]);
    keys.add(pairs[e] * n + pairs[e + 1]);
  }
  expect(keys.size).toBe(m);
  // Planar: within Euler's bound, and the left-right test says so.
  if (n >= 3) expect(m).toBeLessThanOrEqual(3 * n - 6);
  expect(isPlanar(n, pairs)).toBe(true);
  // Maximal: every non-edge would break planarity (n ≥ 5; below, the graph is complete).
  if (n >= 5) {
    const eu = new Int32Array(m + 1);
    const ev = new Int32Array(m + 1);
    for (let e = 0; e < m; e++) {
      eu[e] = pairs[2 * e];
      ev[e] = pairs[2 * e + 1];
    }
    const t = new PlanarityTester(n, m + 1);
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        if (keys.has(i * n + j)) continue;
        eu[m] = i;
        ev[m] = j;
        expect(t.isPlanar(n, m + 1, eu, ev)).toBe(false);
      }
  }
  // Contains the maximum spanning tree on |ρ| = the mst graph (same order (d, i, j)).
  const mst = mstPairs(corr, n);
  for (let e = 0; e < mst.length; e += 2) expect(keys.has(Math.min(mst[e], mst[e + 1]) * n + Math.max(mst[e], mst[e + 1]))).toBe(true);
  // The shortcuts (union-find, triangulated cores, one component) change nothing.
  expect(pairs).toEqual(literalPmfg(corr, n));
}

describe("PMFG", () => {
  test("n ≤ 4 gives the complete graph (3(n−2) ≥ n(n−1)/2), n = 5 drops one edge of K5", () => {
    expect(pmfg(new Float64Array(0), 0).pairs).toEqual([]);
    expect(pmfg(new Float64Array([1]), 1).pairs).toEqual([]);
    expect(pmfg(randomCorr(2, 1, false), 2).pairs).toEqual([0, 1]);
    expect(pmfg(randomCorr(3, 1, false), 3).pairs).toEqual([0, 1, 0, 2, 1, 2]);
    expect(pmfg(randomCorr(4, 1, false), 4).pairs.length / 2).toBe(6);
    // K5 minus its weakest edge: the last candidate is the one refused.
    const c = randomCorr(5, 7, false);
    const got = pmfg(c, 5).pairs;
    expect(got.length / 2).toBe(9);
    expect(got).toEqual(literalPmfg(c, 5));
  });

  test("property: 3(n−2) edges, planar, maximal, contains the MST, equals the literal algorithm", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 40 }), fc.integer(), fc.boolean(), (n, seed, tied) => {
        checkPmfg(randomCorr(n, seed, tied), n);
      }),
      { numRuns: 60 },
    );
  });

  test("all |ρ| equal: the (i, j) order alone decides", () => {
    const n = 9;
    const c = new Float64Array(n * n).fill(0.4);
    checkPmfg(c, n);
    // The first candidates are node 0's edges, then node 1's: a double star 0, 1 + triangles.
    expect(pmfg(c, n).pairs.slice(0, 2 * (2 * n - 3))).toEqual([
      ...Array.from({ length: n - 1 }, (_, j) => [0, j + 1]).flat(),
      ...Array.from({ length: n - 2 }, (_, j) => [1, j + 2]).flat(),
    ]);
  });

  test("larger graphs (n = 60, 120) against the literal algorithm", () => {
    for (const [n, seed] of [
      [60, 3],
      [120, 4],
    ]) {
      const c = randomCorr(n, seed, false);
      expect(pmfg(c, n).pairs).toEqual(literalPmfg(c, n));
    }
  });

  test("graphFromPairs takes the pairs as they are (the wiring into buildGraph is one line)", () => {
    const c = randomCorr(30, 5, false);
    const g = graphFromPairs(c, 30, pmfg(c, 30).pairs);
    expect(g.src.length).toBe(84);
    for (let e = 0; e < 84; e++) expect(g.w[e]).toBe(Math.abs(c[g.src[e] * 30 + g.dst[e]]));
  });

  test("the shortcuts decide most candidates, and every path is taken (counts), results equal to the literal loop", () => {
    const total: PmfgCounts = { bridges: 0, faceKept: 0, rigidRefused: 0, tests: 0, testKept: 0, merges: 0, pairJoins: 0 };
    for (let seed = 1; seed <= 12; seed++) {
      for (const c of [randomCorr(40, seed, false), clusteredCorr(40, seed)]) {
        const counts: PmfgCounts = { bridges: 0, faceKept: 0, rigidRefused: 0, tests: 0, testKept: 0, merges: 0, pairJoins: 0 };
        const { pairs } = pmfg(c, 40, counts);
        expect(pairs).toEqual(literalPmfg(c, 40));
        expect(counts.bridges).toBe(39); // a spanning tree's worth, as Kruskal
        expect(counts.bridges + counts.faceKept + counts.testKept).toBe(3 * 38);
        for (const k of Object.keys(total) as (keyof PmfgCounts)[]) total[k] += counts[k];
      }
    }
    for (const k of Object.keys(total) as (keyof PmfgCounts)[]) expect([k, total[k] > 0]).toEqual([k, true]);
    // Most refusals need no test.
    expect(total.rigidRefused).toBeGreaterThan(3 * (total.tests - total.testKept));
  });

  test("clustered matrices (sets grow apart, then merge) and matrices with NaN", () => {
    for (let seed = 20; seed < 30; seed++) checkPmfg(clusteredCorr(30, seed), 30);
    const c = randomCorr(12, 3, false);
    c[1] = c[12] = Number.NaN;
    const { pairs } = pmfg(c, 12);
    expect(pairs.length / 2).toBe(30);
    expect(isPlanar(12, pairs)).toBe(true);
  });
});

/** Blocks of strongly correlated nodes (|ρ| high inside a block, low across, exact ties included). */
function clusteredCorr(n: number, seed: number): Float64Array {
  const rand = mulberry32(seed);
  const block = Array.from({ length: n }, () => Math.floor(rand() * 4));
  const c = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    c[i * n + i] = 1;
    for (let j = i + 1; j < n; j++) {
      const r = block[i] === block[j] ? 0.6 + 0.4 * rand() : 0.5 * rand();
      c[i * n + j] = c[j * n + i] = (rand() < 0.2 ? Math.round(r * 8) / 8 : r) * (rand() < 0.3 ? -1 : 1);
    }
  }
  return c;
}
