/**
 * The left-right planarity test on graphs whose answer is known (Kuratowski's K5 and K3,3, their
 * subdivisions inside planar graphs, Petersen; grids, wheels, triangulations) and on 400 random
 * graphs labelled by networkx's check_planarity (bench/networkx/generate_pmfg_codependence_fixtures.py).
 */
import { describe, expect, test } from "bun:test";
import golden from "../../test/fixtures/engine/pmfg-codependence-golden.json";
import { mulberry32 } from "../../test/support/engine/random-returns.ts";
import { isPlanar, PlanarityTester } from "./planarity.ts";

const complete = (n: number) => {
  const p: number[] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) p.push(i, j);
  return p;
};
const k33 = () => [0, 3, 0, 4, 0, 5, 1, 3, 1, 4, 1, 5, 2, 3, 2, 4, 2, 5];
const grid = (r: number, c: number) => {
  const p: number[] = [];
  for (let a = 0; a < r; a++)
    for (let b = 0; b < c; b++) {
      if (b + 1 < c) p.push(a * c + b, a * c + b + 1);
      if (a + 1 < r) p.push(a * c + b, (a + 1) * c + b);
    }
  return p;
};
const wheel = (k: number) => {
  const p: number[] = [];
  for (let i = 1; i <= k; i++) p.push(0, i, i, (i % k) + 1);
  return p;
};
const petersen = () => [0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 0, 5, 1, 6, 2, 7, 3, 8, 4, 9, 5, 7, 7, 9, 9, 6, 6, 8, 8, 5];

/** Every edge replaced by a path through `extra` new nodes (numbered from n on). */
function subdivide(n: number, pairs: number[], extra: number): { n: number; pairs: number[] } {
  const out: number[] = [];
  let next = n;
  for (let e = 0; e < pairs.length; e += 2) {
    let prev = pairs[e];
    for (let k = 0; k < extra; k++) {
      out.push(prev, next);
      prev = next++;
    }
    out.push(prev, pairs[e + 1]);
  }
  return { n: next, pairs: out };
}

/** Nodes relabelled by a random permutation, edges shuffled: the DFS starts elsewhere. */
function shuffle(n: number, pairs: number[], seed: number): number[] {
  const rand = mulberry32(seed);
  const perm = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  const edges = [];
  for (let e = 0; e < pairs.length; e += 2) edges.push([perm[pairs[e]], perm[pairs[e + 1]]]);
  for (let i = edges.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [edges[i], edges[j]] = [edges[j], edges[i]];
  }
  return edges.flat();
}

/** A stacked triangulation on n nodes: each node inserted into a random face. */
function triangulation(n: number, seed: number): number[] {
  const rand = mulberry32(seed);
  const pairs = [0, 1, 1, 2, 0, 2];
  const faces: number[][] = [
    [0, 1, 2],
    [0, 1, 2],
  ];
  for (let v = 3; v < n; v++) {
    const [a, b, c] = faces.splice(Math.floor(rand() * faces.length), 1)[0];
    pairs.push(a, v, b, v, c, v);
    faces.push([a, b, v], [b, c, v], [a, c, v]);
  }
  return pairs;
}

describe("planarity", () => {
  test("small and Kuratowski graphs", () => {
    expect(isPlanar(0, [])).toBe(true);
    expect(isPlanar(1, [])).toBe(true);
    expect(isPlanar(4, complete(4))).toBe(true);
    expect(isPlanar(5, complete(5))).toBe(false);
    expect(isPlanar(5, complete(5).slice(2))).toBe(true); // K5 minus an edge
    expect(isPlanar(6, k33())).toBe(false);
    expect(isPlanar(6, k33().slice(2))).toBe(true);
    expect(isPlanar(10, petersen())).toBe(false);
    expect(isPlanar(10, petersen().slice(2))).toBe(false); // still has a K3,3 subdivision
    expect(isPlanar(8, complete(8))).toBe(false);
  });

  test("grids, wheels and triangulations are planar; one more edge breaks a triangulation", () => {
    for (const [r, c] of [
      [2, 2],
      [3, 7],
      [10, 10],
    ])
      expect(isPlanar(r * c, grid(r, c))).toBe(true);
    for (const k of [3, 4, 10, 60]) expect(isPlanar(k + 1, wheel(k))).toBe(true);
    for (let seed = 1; seed <= 20; seed++) {
      const n = 5 + seed * 3;
      const t = triangulation(n, seed);
      expect(t.length / 2).toBe(3 * n - 6);
      expect(isPlanar(n, shuffle(n, t, seed))).toBe(true);
      // Any non-edge added to a maximal planar graph: non-planar (Euler's bound: 3n − 5 edges).
      const has = new Set<number>();
      for (let e = 0; e < t.length; e += 2) has.add(Math.min(t[e], t[e + 1]) * n + Math.max(t[e], t[e + 1]));
      let u = 0;
      let v = 1;
      while (has.has(u * n + v)) {
        if (v + 1 < n) v++;
        else {
          u++;
          v = u + 1;
        }
      }
      expect(isPlanar(n, [...t, u, v])).toBe(false);
    }
  });

  test("subdivided K5 and K3,3 are non-planar, also hidden in a planar graph with fewer than 3n − 6 edges", () => {
    for (let seed = 1; seed <= 12; seed++) {
      for (const [k, base] of [
        [5, complete(5)],
        [6, k33()],
      ] as const) {
        const s = subdivide(k, base, 1 + (seed % 3));
        expect(isPlanar(s.n, shuffle(s.n, s.pairs, seed))).toBe(false);
        // Attach a grid by one node: the grid is planar, the Kuratowski part is not.
        const g = grid(4, 4).map((x) => x + s.n);
        const all = [...s.pairs, ...g, 0, s.n];
        expect(all.length / 2).toBeLessThan(3 * (s.n + 16) - 6);
        expect(isPlanar(s.n + 16, shuffle(s.n + 16, all, seed))).toBe(false);
        // Minus one edge of the subdivision, planar again.
        expect(isPlanar(s.n + 16, shuffle(s.n + 16, all.slice(2), seed))).toBe(true);
      }
    }
  });

  test("disconnected graphs: planar iff every component is; root tests one component", () => {
    const k5 = complete(5);
    const g = grid(3, 3).map((x) => x + 5);
    expect(isPlanar(14, [...g])).toBe(true);
    expect(isPlanar(14, [...g, ...k5])).toBe(false);
    const pairs = [...g, ...k5];
    const m = pairs.length / 2;
    const eu = Int32Array.from({ length: m }, (_, e) => pairs[2 * e]);
    const ev = Int32Array.from({ length: m }, (_, e) => pairs[2 * e + 1]);
    const t = new PlanarityTester(14, m);
    expect(t.isPlanar(14, m, eu, ev, 5)).toBe(true); // the grid's component
    expect(t.isPlanar(14, m, eu, ev, 0)).toBe(false); // the K5's
    expect(t.isPlanar(14, m, eu, ev)).toBe(false);
  });

  test("400 random graphs as networkx's check_planarity labels them (a reused tester)", () => {
    const tester = new PlanarityTester(60, 3 * 60);
    let planar = 0;
    for (const c of golden.planarity) {
      const m = c.edges.length;
      const eu = Int32Array.from(c.edges, (e) => e[0]);
      const ev = Int32Array.from(c.edges, (e) => e[1]);
      expect({ n: c.n, m, planar: tester.isPlanar(c.n, m, eu, ev) }).toEqual({ n: c.n, m, planar: c.planar });
      if (c.planar) planar++;
    }
    expect(planar).toBeGreaterThan(100);
    expect(golden.planarity.length - planar).toBeGreaterThan(100);
  });
});
