/**
 * TMFG properties on random correlation matrices: 3(n−2) edges, every node in a triangle, and
 * planar — the final faces form a closed triangulated surface (each edge in exactly two faces,
 * each node's faces one cycle around it) with V − E + F = 2, i.e. a sphere.
 */
import { describe, expect, test } from "bun:test";
import { correlationMatrix } from "./correlation.ts";
import { factorReturns, mulberry32 } from "../../test/support/engine/random-returns.ts";
import { buildGraph } from "./graph.ts";
import { literalTmfg } from "../../test/reference/tmfg.ts";
import { tmfg } from "./tmfg.ts";

function randomCorr(n: number, seed: number): Float64Array {
  return correlationMatrix(factorReturns(n, 60, seed), "pearson");
}

/** Each node's faces, linked through shared edges, must form one cycle (the node's link). */
function linkIsOneCycle(v: number, faces: number[]): boolean {
  const around: [number, number][] = [];
  for (let f = 0; f < faces.length; f += 3) {
    const tri = faces.slice(f, f + 3);
    if (tri.includes(v)) {
      const [a, b] = tri.filter((x) => x !== v);
      around.push([a, b]);
    }
  }
  if (around.length < 3) return false;
  const next = new Map<number, number[]>();
  for (const [a, b] of around) {
    next.set(a, [...(next.get(a) ?? []), b]);
    next.set(b, [...(next.get(b) ?? []), a]);
  }
  if ([...next.values()].some((x) => x.length !== 2)) return false;
  let prev = around[0][0];
  let cur = around[0][1];
  let steps = 1;
  while (cur !== around[0][0]) {
    const [x, y] = next.get(cur)!;
    [prev, cur] = [cur, x === prev ? y : x];
    steps++;
  }
  return steps === around.length;
}

describe("TMFG", () => {
  test("n <= 3 gives the complete graph; n = 4 the tetrahedron", () => {
    expect(tmfg(randomCorr(2, 1), 2).pairs).toEqual([0, 1]);
    expect(tmfg(randomCorr(3, 1), 3).pairs.length / 2).toBe(3);
    expect(tmfg(randomCorr(4, 1), 4).pairs.length / 2).toBe(6);
  });

  test("property: 3(n−2) distinct edges, each node in a triangle, a planar triangulation", () => {
    const rand = mulberry32(15);
    for (let run = 0; run < 60; run++) {
      const n = 4 + Math.floor(rand() * 70);
      const corr = randomCorr(n, 1000 + run);
      const { pairs, faces } = tmfg(corr, n);
      const edges = new Set<string>();
      for (let q = 0; q < pairs.length; q += 2) {
        expect(pairs[q]).toBeLessThan(pairs[q + 1]);
        edges.add(`${pairs[q]}-${pairs[q + 1]}`);
      }
      expect(edges.size).toBe(3 * (n - 2));
      expect(pairs.length / 2).toBe(3 * (n - 2));
      // Faces: 2n − 4 triangles, each made of graph edges, each edge in exactly two of them.
      const F = faces.length / 3;
      expect(F).toBe(2 * n - 4);
      const uses = new Map<string, number>();
      for (let f = 0; f < faces.length; f += 3) {
        const [a, b, c] = faces.slice(f, f + 3).sort((x, y) => x - y);
        for (const e of [`${a}-${b}`, `${b}-${c}`, `${a}-${c}`]) {
          expect(edges.has(e)).toBe(true);
          uses.set(e, (uses.get(e) ?? 0) + 1);
        }
      }
      expect([...uses.values()].every((u) => u === 2)).toBe(true);
      expect(uses.size).toBe(edges.size);
      expect(n - edges.size + F).toBe(2); // Euler: a sphere
      for (let v = 0; v < n; v++) expect(linkIsOneCycle(v, faces)).toBe(true);
      // The graph built from it keeps those edges.
      expect(buildGraph(corr, n, "tmfg", { knnK: 4, threshold: 0.5 }).src.length).toBe(3 * (n - 2));
    }
  });

  test("the fast face bookkeeping picks the same edges as a full rescan at every step", () => {
    for (const [n, seed] of [
      [12, 1],
      [40, 2],
      [90, 3],
    ] as const) {
      const corr = randomCorr(n, seed);
      expect(tmfg(corr, n).pairs).toEqual(literalTmfg(corr, n));
    }
  });
});
