/**
 * Hierarchy properties on random correlation matrices (fast-check): a well-formed linkage matrix,
 * single linkage = the MST's edge lengths sorted, relabelling invariance, leaf order a
 * permutation, maxclust cuts; and hand-checked small cases (scipy's, gh-12651's).
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { kruskalPairs } from "../../test/reference/kruskal.ts";
import { factorReturns } from "../../test/support/engine/random-returns.ts";
import { correlationMatrix } from "./correlation.ts";
import { correlationDistance, flatClusters, LINKAGE_METHODS, leafOrder, linkage, type LinkageMethod } from "./hierarchy.ts";

const randomCorr = (n: number, seed: number) => correlationMatrix(factorReturns(n, 40, seed), "pearson");
const rows = (Z: Float64Array) => Array.from({ length: Z.length / 4 }, (_, i) => Array.from(Z.subarray(i * 4, i * 4 + 4)));

/** Each merge's leaves as a sorted key, with its height. */
function clusterSets(Z: Float64Array, n: number, relabel: (leaf: number) => number = (v) => v): Map<string, number> {
  const members: number[][] = Array.from({ length: n }, (_, v) => [relabel(v)]);
  const out = new Map<string, number>();
  for (let i = 0; i < n - 1; i++) {
    const m = [...members[Z[i * 4]], ...members[Z[i * 4 + 1]]].sort((a, b) => a - b);
    members.push(m);
    out.set(m.join(","), Z[i * 4 + 2]);
  }
  return out;
}

const caseArb = fc.record({
  n: fc.integer({ min: 2, max: 40 }),
  seed: fc.integer({ min: 1, max: 1e6 }),
  signed: fc.boolean(),
  method: fc.constantFrom(...LINKAGE_METHODS),
});

describe("linkage", () => {
  test("scipy's own example: single linkage of the 1-D points 1, 4, 5", () => {
    const x = [1, 4, 5];
    const dist = Float64Array.from({ length: 9 }, (_, q) => Math.abs(x[Math.floor(q / 3)] - x[q % 3]));
    const link = linkage(dist, 3, "single");
    expect(rows(link.merges)).toEqual([
      [1, 2, 1, 2],
      [0, 3, 3, 3],
    ]);
    expect(Array.from(leafOrder(link, 3))).toEqual([0, 1, 2]);
    // gh-12651: scipy < 1.15 answered [1, 1, 1] for k = 3.
    expect(Array.from(flatClusters(link, 3, 3))).toEqual([1, 2, 3]);
    expect(Array.from(flatClusters(link, 3, 2))).toEqual([2, 1, 1]);
    expect(Array.from(flatClusters(link, 3, 1))).toEqual([1, 1, 1]);
  });

  test("n = 0, 1, 2", () => {
    for (const m of LINKAGE_METHODS) {
      expect(linkage(new Float64Array(0), 0, m).merges.length).toBe(0);
      expect(linkage(new Float64Array(1), 1, m).merges.length).toBe(0);
      expect(rows(linkage(Float64Array.of(0, 0.7, 0.7, 0), 2, m).merges)).toEqual([[0, 1, 0.7, 2]]);
    }
    expect(Array.from(leafOrder({ merges: new Float64Array(0) }, 1))).toEqual([0]);
    expect(Array.from(flatClusters({ merges: new Float64Array(0) }, 1, 1))).toEqual([1]);
    expect(() => flatClusters({ merges: new Float64Array(0) }, 1, 0)).toThrow(RangeError);
  });

  test("rejects non-finite distances, as scipy does", () => {
    expect(() => linkage(Float64Array.of(0, Number.NaN, Number.NaN, 0), 2, "average")).toThrow(RangeError);
  });

  test("ward gives Ward's merge cost on points of a line", () => {
    // Three points on a line at 0, 1 and 3: ward merges {0, 1} at 1, then {0, 1} with {3}.
    const x = [0, 1, 3];
    const dist = Float64Array.from({ length: 9 }, (_, q) => Math.abs(x[Math.floor(q / 3)] - x[q % 3]));
    const Z = linkage(dist, 3, "ward").merges;
    expect(Z[2]).toBe(1);
    // d(3 ∪ {0,1}) = √(2·|C1||C2|/(|C1|+|C2|))·‖c1 − c2‖ = √(4/3)·2.5.
    expect(Z[6]).toBeCloseTo(Math.sqrt(4 / 3) * 2.5, 12);
  });

  test("property: a well-formed linkage matrix (ids, sizes, heights non-decreasing, left < right)", () => {
    fc.assert(
      fc.property(caseArb, ({ n, seed, signed, method }) => {
        const link = linkage(correlationDistance(randomCorr(n, seed), n, signed), n, method as LinkageMethod);
        const Z = link.merges;
        const size = new Int32Array(2 * n - 1).fill(1);
        const used = new Uint8Array(2 * n - 1);
        for (let i = 0; i < n - 1; i++) {
          const [a, b, h, s] = Z.subarray(i * 4, i * 4 + 4);
          expect(a).toBeLessThan(b);
          expect(b).toBeLessThan(n + i);
          expect(used[a] + used[b]).toBe(0);
          used[a] = used[b] = 1;
          size[n + i] = size[a] + size[b];
          expect(s).toBe(size[n + i]);
          if (i > 0) expect(h).toBeGreaterThanOrEqual(Z[(i - 1) * 4 + 2]);
        }
        expect(Z[(n - 2) * 4 + 3]).toBe(n);
        const order = Array.from(leafOrder(link, n)).sort((x, y) => x - y);
        expect(order).toEqual(Array.from({ length: n }, (_, i) => i));
      }),
      { numRuns: 120 },
    );
  });

  test("property: single linkage heights are the MST's edge lengths, sorted", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 60 }), fc.integer({ min: 1, max: 1e6 }), (n, seed) => {
        const corr = randomCorr(n, seed);
        const dist = correlationDistance(corr, n);
        const pairs = kruskalPairs(corr, n);
        const want = Array.from({ length: n - 1 }, (_, e) => dist[pairs[2 * e] * n + pairs[2 * e + 1]]).sort((a, b) => a - b);
        const Z = linkage(dist, n, "single").merges;
        expect(Array.from({ length: n - 1 }, (_, i) => Z[i * 4 + 2])).toEqual(want);
      }),
      { numRuns: 80 },
    );
  });

  test("property: relabelling the symbols gives the same clusters at the same heights", () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 0, max: 1e6 }), ({ n, seed, signed, method }, pseed) => {
        const corr = randomCorr(n, seed);
        // A seeded shuffle: new index q holds old symbol perm[q].
        const perm = Array.from({ length: n }, (_, i) => i);
        let s = pseed;
        for (let i = n - 1; i > 0; i--) {
          s = (s * 1103515245 + 12345) % 2147483648;
          const j = s % (i + 1);
          [perm[i], perm[j]] = [perm[j], perm[i]];
        }
        const permuted = Float64Array.from({ length: n * n }, (_, q) => corr[perm[Math.floor(q / n)] * n + perm[q % n]]);
        const m = method as LinkageMethod;
        const a = clusterSets(linkage(correlationDistance(corr, n, signed), n, m).merges, n);
        const b = clusterSets(linkage(correlationDistance(permuted, n, signed), n, m).merges, n, (v) => perm[v]);
        expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
        // Lance–Williams updates run in another order: heights agree to rounding.
        for (const [key, h] of a) expect(Math.abs(b.get(key)! - h)).toBeLessThan(1e-12);
      }),
      { numRuns: 120 },
    );
  });

  test("property: maxclust cuts at the lowest height leaving ≤ k clusters, labelled 1 … c", () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 1, max: 45 }), ({ n, seed, signed, method }, k) => {
        const link = linkage(correlationDistance(randomCorr(n, seed), n, signed), n, method as LinkageMethod);
        const T = flatClusters(link, n, k);
        const c = Math.max(...T);
        expect(new Set(T).size).toBe(c);
        // Continuous random data: no two heights tie, so exactly min(k, n) clusters.
        expect(c).toBe(Math.min(k, n));
        // Leaves share a label exactly when they merge below the cut.
        const Z = link.merges;
        const cut = n - c;
        const root = Int32Array.from({ length: 2 * n - 1 }, (_, v) => v);
        const find = (v: number): number => (root[v] === v ? v : (root[v] = find(root[v])));
        for (let i = 0; i < cut; i++) root[find(Z[i * 4])] = root[find(Z[i * 4 + 1])] = n + i;
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) expect(T[i] === T[j]).toBe(find(i) === find(j));
      }),
      { numRuns: 120 },
    );
  });

  test("correlationDistance: unsigned √(2(1−|ρ|)), signed √(2(1−ρ)), zero diagonal", () => {
    const corr = Float64Array.of(1, -0.5, 0.5, -0.5, 1, 1, 0.5, 1, 1);
    expect(Array.from(correlationDistance(corr, 3))).toEqual([0, 1, 1, 1, 0, 0, 1, 0, 0]);
    expect(Array.from(correlationDistance(corr, 3, true))).toEqual([0, Math.sqrt(3), 1, Math.sqrt(3), 0, 0, 1, 0, 0]);
  });
});
