/**
 * HRP weights against the literal published algorithm (bench/networkx/hrp_reference.py: getQuasiDiag,
 * getClusterVar, getRecBipart in numpy/pandas, on scipy's linkage; fixtures from
 * bench/networkx/generate_hierarchy_fixtures.py) within 1e-8, per method and distance, on generated
 * panels; the inverse-variance baseline and the covariance against numpy.
 */
import { describe, expect, test } from "bun:test";
import golden from "../../test/fixtures/engine/hrp-golden.json";
import { describeNifty, loadNifty } from "../../test/support/nifty.ts";
import { correlationMatrix } from "./correlation.ts";
import { correlationDistance, LINKAGE_METHODS, leafOrder, linkage, type LinkageMethod } from "./hierarchy.ts";
import { hrpWeights, inverseVarianceWeights, sampleCovariance, turnoverAligned } from "./hrp.ts";
import { buildReturnsPanel, windowMembers, windowSeries } from "./window.ts";

const TOL = 1e-8;

function worstDiff(got: ArrayLike<number>, want: number[]): number {
  expect(got.length).toBe(want.length);
  let worst = 0;
  for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i] - want[i]));
  return worst;
}

describe(`HRP vs the literal reference (scipy ${golden.scipy}, pandas ${golden.pandas})`, () => {
  for (const p of golden.panels) {
    test(p.id, () => {
      const n = p.n;
      const rets = p.returns.map((r) => Float64Array.from(r));
      const cov = Float64Array.from(p.cov.flat());
      const corr = Float64Array.from(p.corr.flat());
      // Our covariance and correlation of the same returns agree with numpy's to rounding.
      const ourCov = sampleCovariance(rets, 0, rets[0].length);
      for (let q = 0; q < n * n; q++) expect(Math.abs(ourCov[q] - cov[q])).toBeLessThanOrEqual(1e-12 * Math.abs(cov[q]) + 1e-18);
      expect(worstDiff(correlationMatrix(rets, "pearson"), p.corr.flat())).toBeLessThan(1e-12);
      expect(worstDiff(inverseVarianceWeights(cov, n), p.ivp)).toBeLessThan(1e-12);
      for (const c of p.cases) {
        const what = `${p.id} ${c.signed ? "signed" : "unsigned"} ${c.method}`;
        const order = leafOrder(linkage(correlationDistance(corr, n, c.signed), n, c.method as LinkageMethod), n);
        expect(Array.from(order), `${what}: quasi-diagonal order`).toEqual(c.order);
        expect(worstDiff(hrpWeights(cov, n, order), c.weights), what).toBeLessThan(TOL);
        expect(worstDiff(hrpWeights(ourCov, n, order), c.weights), `${what}, our covariance`).toBeLessThan(TOL);
      }
      // The paper's d = √((1−ρ)/2) is our signed d / 2: the same single-linkage tree, heights halved.
      const link = linkage(correlationDistance(corr, n, true), n, "single");
      expect(Array.from(leafOrder(link, n))).toEqual(p.paper.order);
      expect(
        worstDiff(
          Array.from({ length: n - 1 }, (_, i) => link.merges[i * 4 + 2] / 2),
          p.paper.heights,
        ),
      ).toBeLessThan(1e-12);
      expect(worstDiff(hrpWeights(cov, n, leafOrder(link, n)), p.paper.weights)).toBeLessThan(TOL);
    });
  }

  test("covers every method, both distances, n = 2 and 50", () => {
    const cases = golden.panels.flatMap((p) => p.cases.map((c) => `${c.method}/${c.signed}`));
    expect(new Set(cases).size).toBe(2 * LINKAGE_METHODS.length);
    expect(golden.panels.map((p) => p.n)).toContain(2);
    expect(golden.panels.map((p) => p.n)).toContain(50);
  });
});

describeNifty("HRP on NIFTY-50, rolling 30 as-ofs (weights and turnover)", () => {
  const input = loadNifty();
  for (const method of LINKAGE_METHODS) {
    test(method, () => {
      const end = input.labels.findLastIndex((l) => l.slice(0, 10) <= "2024-06-28");
      const panel = buildReturnsPanel(input.closes, end - 29, end, 60);
      let prev: { nodes: number[]; w: Float64Array } | null = null;
      for (let t = end - 29; t <= end; t++) {
        const nodes = windowMembers(panel, t).nodes;
        const series = windowSeries(panel, nodes, t);
        const n = series.length;
        const cov = sampleCovariance(series, 0, 60);
        const corr = correlationMatrix(series, "pearson", 0, 60);
        const w = hrpWeights(cov, n, leafOrder(linkage(correlationDistance(corr, n), n, method), n));
        expect(Math.abs(w.reduce((a, b) => a + b, 0) - 1)).toBeLessThanOrEqual(1e-12);
        for (const x of w) expect(x).toBeGreaterThanOrEqual(0);
        if (prev) {
          const to = turnoverAligned(prev.nodes, prev.w, nodes, w);
          expect(to).toBeGreaterThanOrEqual(0);
          expect(to).toBeLessThanOrEqual(1);
        }
        prev = { nodes, w };
      }
    });
  }
});
