/**
 * The left-right planarity test on graphs whose answer is known (Kuratowski's K5 and K3,3, their
 * subdivisions inside planar graphs, Petersen; grids, wheels, triangulations) and on 400 random
 * graphs labelled by networkx's check_planarity (bench/networkx/generate_pmfg_codependence_fixtures.py).
 */
import { describe, expect, test } from "bun:test";
import golden from "../../test/fixtures/engine/pmfg-codependence-golden.json";
import { mulberry32 } from "../../test/support/engine/random-returns.ts";
import { PlaneEmbedding } from "./plane-embedding.ts";
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

  test("isPlanarWith (the kept graph's orientation reused) answers as a fresh isPlanar, embedding or not in between", () => {
    const rand = mulberry32(26);
    let keptByTest = 0;
    for (let round = 0; round < 60; round++) {
      const n = 6 + Math.floor(rand() * 35);
      const target = 3 * (n - 2);
      const with_ = new PlanarityTester(n, target);
      const eu = new Int32Array(target);
      const ev = new Int32Array(target);
      const plane = new PlaneEmbedding(n);
      const pairs: [number, number][] = [];
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) pairs.push([i, j]);
      for (let k = pairs.length - 1; k > 0; k--) {
        const r = Math.floor(rand() * (k + 1));
        [pairs[k], pairs[r]] = [pairs[r], pairs[k]];
      }
      let m = 0;
      for (const [u, v] of pairs) {
        if (m === target) break;
        eu[m] = u;
        ev[m] = v;
        const fresh = new PlanarityTester(n, m + 1).isPlanar(n, m + 1, eu, ev, u);
        // Some planar edges are kept without a test (as the PMFG's rules keep them), the rest tested.
        if (fresh && rand() < 0.4) with_.kept(m, u, v);
        else {
          const before = with_.isPlanarWith(n, m + 1, eu, ev, u);
          expect([n, m, before]).toEqual([n, m, fresh]);
          if (!before) continue;
          keptByTest++;
          if (rand() < 0.5) {
            plane.reset();
            for (let e = 0; e <= m; e++) plane.addEdge(eu[e], ev[e]);
            with_.embed(plane.cw, plane.ccw, plane.first, n);
            expect(plane.check(u)).toBe(true);
          }
        }
        m++;
      }
    }
    expect(keptByTest).toBeGreaterThan(500);
  });
});

/** Tests `pairs` on a fresh tester and, when planar, embeds it into a PlaneEmbedding (every component). */
function embedded(n: number, pairs: number[]): PlaneEmbedding | null {
  const m = pairs.length / 2;
  const eu = Int32Array.from({ length: m }, (_, e) => pairs[2 * e]);
  const ev = Int32Array.from({ length: m }, (_, e) => pairs[2 * e + 1]);
  const t = new PlanarityTester(n, m);
  if (!t.isPlanar(n, m, eu, ev)) return null;
  const plane = new PlaneEmbedding(n);
  for (let e = 0; e < m; e++) plane.addEdge(eu[e], ev[e]);
  t.embed(plane.cw, plane.ccw, plane.first, n);
  return plane;
}

/** The cube: 8 nodes, 6 square faces; 3-connected, so its faces are fixed. */
const cube = () => [0, 1, 1, 2, 2, 3, 3, 0, 4, 5, 5, 6, 6, 7, 7, 4, 0, 4, 1, 5, 2, 6, 3, 7];

describe("the embedding phase and PlaneEmbedding", () => {
  test("embed() gives a genus-0 rotation system of every planar graph (check() verifies it)", () => {
    const graphs: [number, number[]][] = [
      [3, [0, 1, 1, 2, 0, 2]],
      [4, complete(4)],
      [5, complete(5).slice(2)],
      [6, k33().slice(2)],
      [8, cube()],
      [30, grid(5, 6)],
      [61, wheel(60)],
      [14, [...grid(3, 3).map((x) => x + 5), 0, 1, 1, 2, 3, 4]], // several components
    ];
    for (let seed = 1; seed <= 10; seed++) {
      const n = 5 + seed * 4;
      graphs.push([n, shuffle(n, triangulation(n, seed), seed)]);
    }
    for (const c of golden.planarity) if (c.planar) graphs.push([c.n, c.edges.flat()]);
    for (const [n, pairs] of graphs) {
      const plane = embedded(n, pairs)!;
      expect(plane).not.toBeNull();
      for (let v = 0; v < n; v++) if (plane.first[v] !== -1) expect(plane.check(v)).toBe(true);
      expect(plane.valid).toBe(true);
    }
  });

  test("embed() only right after a planar test", () => {
    const t = new PlanarityTester(5, 10);
    const k5 = complete(5);
    const eu = Int32Array.from({ length: 10 }, (_, e) => k5[2 * e]);
    const ev = Int32Array.from({ length: 10 }, (_, e) => k5[2 * e + 1]);
    const plane = new PlaneEmbedding(5);
    expect(t.isPlanar(5, 10, eu, ev)).toBe(false);
    expect(() => t.embed(plane.cw, plane.ccw, plane.first, 5)).toThrow();
    expect(t.isPlanar(5, 9, eu, ev)).toBe(true);
    t.embed(plane.cw, plane.ccw, plane.first, 5);
    expect(() => t.embed(plane.cw, plane.ccw, plane.first, 5)).toThrow();
  });

  test("addInFace: the cube's face diagonals fit, its space diagonals do not; the result stays plane", () => {
    const plane = embedded(8, cube())!;
    expect(plane.addInFace(0, 6)).toBe(false); // opposite corners: no common face
    expect(plane.addInFace(1, 7)).toBe(false);
    expect(plane.addInFace(0, 2)).toBe(true); // a diagonal of the face 0-1-2-3
    expect(plane.check(0)).toBe(true);
    expect(plane.addInFace(1, 3)).toBe(false); // the other diagonal now crosses it
    expect(plane.addInFace(4, 6)).toBe(true);
    expect(plane.addInFace(0, 5)).toBe(true);
    expect(plane.check(0)).toBe(true);
    // Each answer agrees with the test on the graph plus that edge.
    const pairs = [...cube(), 0, 2, 4, 6, 0, 5];
    for (const [u, v] of [
      [0, 6],
      [1, 3],
      [1, 7],
    ])
      expect(isPlanar(8, [...pairs, u, v])).toBe(false);
  });

  test("addInFace on a path and a tree (one face), across a cut node, and addBridge joins components", () => {
    const path = embedded(4, [0, 1, 1, 2, 2, 3])!;
    expect(path.addInFace(0, 3)).toBe(true); // the cycle 0-1-2-3
    expect(path.addInFace(0, 2)).toBe(true); // a chord on one side
    expect(path.addInFace(1, 3)).toBe(true); // the other on the other side
    expect(path.check(0)).toBe(true);
    // Two triangles sharing node 2 (a bow tie): 0 and 4 share the outer face.
    const bow = embedded(5, [0, 1, 1, 2, 0, 2, 2, 3, 3, 4, 2, 4])!;
    expect(bow.addInFace(0, 4)).toBe(true);
    expect(bow.check(0)).toBe(true);
    // Bridges: a lone node, then two triangles.
    const p = new PlaneEmbedding(7);
    p.addBridge(0, 1);
    p.addBridge(1, 2);
    expect(p.addInFace(0, 2)).toBe(true);
    p.addBridge(3, 4);
    p.addBridge(4, 5);
    expect(p.addInFace(3, 5)).toBe(true);
    p.addBridge(2, 3);
    p.addBridge(6, 0);
    expect(p.check(0)).toBe(true);
    // Leaf 6 sits in a corner of 0 between its triangle neighbours 1 and 2: it shares that face.
    expect(p.addInFace(6, 1)).toBe(true);
    expect(p.check(0)).toBe(true);
    // 6–5 is planar, but the triangle 3-4-5 may hang inside 0-1-2: a face test is only sufficient.
    p.addInFace(6, 5);
    expect(p.check(0)).toBe(true);
  });

  test("addByMoving: a leaf moves to any corner of its node that shares a face with the other end", () => {
    // The cube plus a leaf 8 at node 0: 8 and 6 share no face wherever the leaf hangs (0 and 6 do
    // not), 8 and 1 do (adjacent to 0), 8 and 2 do once the leaf sits in the face 0-1-2-3.
    const pairs = [...cube(), 0, 8];
    const plane = embedded(9, pairs)!;
    expect(plane.addByMoving(8, 6)).toBe(false);
    expect(plane.addByMoving(6, 8)).toBe(false); // either end may be the leaf
    expect(plane.check(0)).toBe(true); // a refusal puts the leaf back
    expect(isPlanar(9, [...pairs, 6, 8])).toBe(false);
    expect(plane.addByMoving(8, 2)).toBe(true);
    expect(plane.check(0)).toBe(true);
    // Two leaves, 8 at 0 and 9 at 6: joining them needs 0 and 6 on one face.
    const two = [...cube(), 0, 8, 6, 9];
    const plane2 = embedded(10, two)!;
    expect(plane2.addByMoving(8, 9)).toBe(false);
    expect(isPlanar(10, [...two, 8, 9])).toBe(false);
    expect(plane2.addByMoving(9, 1)).toBe(true); // 6 and 1 share the face 1-2-6-5
    expect(plane2.check(0)).toBe(true);
    // Not a leaf at either end: nothing claimed.
    expect(plane2.addByMoving(1, 3)).toBe(false);
  });

  test("addByMoving: a node with 2 neighbours moves to any face holding both and the other end", () => {
    // The cube plus node 8 joined to 0 and 1 (it sits beside the edge 0-1, in one of its 2 faces).
    const pairs = [...cube(), 0, 8, 1, 8];
    for (const [other, fits] of [
      [3, true], // face 0-1-2-3
      [4, true], // face 0-1-5-4
      [2, true],
      [5, true],
      [6, false], // 0, 1 and 6 share no face
      [7, false],
    ] as const) {
      const plane = embedded(9, pairs)!;
      expect([other, plane.addByMoving(8, other)]).toEqual([other, fits]);
      expect(plane.check(0)).toBe(true); // moved and joined, or put back as it was
      expect(plane.valid).toBe(true);
      expect(isPlanar(9, [...pairs, 8, other])).toBe(fits);
      // A second move of the same node (now with 3 neighbours or still 2) keeps the embedding plane.
      if (fits) expect(plane.addByMoving(8, 0)).toBe(false);
    }
    // A node with 2 neighbours on a path: 0-1-2 plus 3-4 hanging at 2 (one face): every move fits.
    const path = embedded(5, [0, 1, 1, 2, 2, 3, 3, 4])!;
    expect(path.addByMoving(1, 4)).toBe(true);
    expect(path.addByMoving(3, 0)).toBe(true);
    expect(path.check(0)).toBe(true);
  });

  test("check() rejects a rotation system that is not plane (K3,3 has none; a scrambled one is rejected)", () => {
    // The cube embedded, then two rotations at node 0 swapped: genus 1 or an inconsistent system.
    const plane = embedded(8, cube())!;
    const [a, b] = [plane.first[0], plane.cw[0 * 8 + plane.first[0]]];
    const c = plane.cw[0 * 8 + b];
    // Rotation a -> b -> c -> a becomes a -> c -> b -> a.
    plane.cw[a] = c;
    plane.cw[c] = b;
    plane.cw[b] = a;
    plane.ccw[c] = a;
    plane.ccw[b] = c;
    plane.ccw[a] = b;
    expect(plane.check(0)).toBe(false);
    expect(plane.valid).toBe(false);
    expect(plane.addInFace(0, 2)).toBe(false); // nothing claimed once invalid
  });
});
