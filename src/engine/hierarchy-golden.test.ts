/**
 * Linkage matrices, leaf orders and maxclust labels against scipy (Debian's python3-scipy, through
 * bench/networkx/generate_hierarchy_fixtures.py): merges and sizes identical, heights within 1e-9,
 * for all four methods on the signed and unsigned correlation distance, on generated panels
 * (n = 2 … 50), panels with duplicated series and integer distance matrices (exact ties).
 */
import { describe, expect, test } from "bun:test";
import golden from "../../test/fixtures/engine/hierarchy-golden.json";
import { describeNifty, loadNifty } from "../../test/support/nifty.ts";
import { correlationMatrix } from "./correlation.ts";
import { buildGraph } from "./graph.ts";
import { correlationDistance, flatClusters, LINKAGE_METHODS, leafOrder, linkage, type LinkageMethod } from "./hierarchy.ts";
import { buildReturnsPanel, windowMembers, windowSeries } from "./window.ts";

const TOL = 1e-9;

interface Case {
  method: string;
  Z: number[][];
  leaves: number[];
  fcluster: Record<string, number[]>;
}

function flat(rows: number[][]): Float64Array {
  return Float64Array.from(rows.flat());
}

function check(dist: Float64Array, n: number, c: Case, what: string): void {
  const link = linkage(dist, n, c.method as LinkageMethod);
  const Z = link.merges;
  expect(Z.length, what).toBe((n - 1) * 4);
  let worst = 0;
  for (let i = 0; i < n - 1; i++) {
    const [a, b, h, s] = c.Z[i];
    if (Z[i * 4] !== a || Z[i * 4 + 1] !== b || Z[i * 4 + 3] !== s) {
      throw new Error(`${what}: merge ${i} is (${Z[i * 4]}, ${Z[i * 4 + 1]}, size ${Z[i * 4 + 3]}), scipy (${a}, ${b}, size ${s})`);
    }
    worst = Math.max(worst, Math.abs(Z[i * 4 + 2] - h));
  }
  expect(worst, `${what}: heights`).toBeLessThanOrEqual(TOL);
  expect(Array.from(leafOrder(link, n)), `${what}: leaves_list`).toEqual(c.leaves);
  for (const [k, labels] of Object.entries(c.fcluster)) {
    expect(Array.from(flatClusters(link, n, Number(k))), `${what}: fcluster maxclust ${k}`).toEqual(labels);
  }
}

describe(`hierarchies vs scipy ${golden.scipy} (generated panels)`, () => {
  for (const p of golden.panels) {
    test(p.id, () => {
      if ("corr" in p && p.corr) {
        const corr = flat(p.corr);
        for (const signed of [false, true]) {
          const dist = correlationDistance(corr, p.n, signed);
          for (const c of signed ? p.signed! : p.unsigned!) check(dist, p.n, c, `${p.id} ${signed ? "signed" : "unsigned"} ${c.method}`);
        }
      } else {
        const dist = flat(p.dist!);
        for (const c of p.cases!) check(dist, p.n, c, `${p.id} ${c.method}`);
      }
    });
  }

  test("every method is covered, and the tie panels do tie", () => {
    const methods = new Set(golden.panels.flatMap((p) => [...(p.unsigned ?? []), ...(p.cases ?? [])].map((c) => c.method)));
    expect([...methods].sort()).toEqual([...LINKAGE_METHODS].sort());
    // The duplicate panels merge their copies at height exactly 0.
    const dup = golden.panels.find((p) => p.id === "duplicates-n12")!;
    expect(dup.unsigned!.find((c) => c.method === "single")!.Z.filter((r) => r[2] === 0).length).toBe(4);
    expect(dup.signed!.find((c) => c.method === "single")!.Z.filter((r) => r[2] === 0).length).toBe(3);
  });
});

describeNifty("hierarchies on NIFTY-50 windows (consistency with the engine's MST)", () => {
  const input = loadNifty();
  for (const asof of ["2021-03-31", "2023-08-31", "2025-09-30"]) {
    test(asof, () => {
      const t = input.labels.findLastIndex((l) => l.slice(0, 10) <= asof);
      const panel = buildReturnsPanel(input.closes, t, t, 60);
      const series = windowSeries(panel, windowMembers(panel, t).nodes, t);
      const n = series.length;
      const corr = correlationMatrix(series, "pearson", 0, 60);
      // Single linkage is Kruskal on d: its heights are the MST's edge lengths, sorted.
      const mst = buildGraph(corr, n, "mst", { knnK: 4, threshold: 0.5 });
      const heights = Array.from(mst.d).sort((a, b) => a - b);
      const Z = linkage(correlationDistance(corr, n), n, "single").merges;
      expect(Array.from({ length: n - 1 }, (_, i) => Z[i * 4 + 2])).toEqual(heights);
      for (const method of LINKAGE_METHODS) {
        for (const signed of [false, true]) {
          const link = linkage(correlationDistance(corr, n, signed), n, method);
          expect(Array.from(leafOrder(link, n)).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i));
          expect(new Set(flatClusters(link, n, 5)).size).toBeLessThanOrEqual(5);
        }
      }
    });
  }
});
