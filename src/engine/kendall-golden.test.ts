/**
 * Kendall τ-b against scipy.stats.kendalltau (scipy 1.10, variant 'b') within 1e-9: generated
 * panels (n = 3 … 50, L = 2 … 250, repeated values, duplicated, negated, constant series) and
 * NIFTY-50 windows, fixtures from bench/networkx/generate_pmfg_codependence_fixtures.py.
 * scipy's nan (a constant series) is stored as null; the engine gives 0.
 */
import { describe, expect, test } from "bun:test";
import golden from "../../test/fixtures/engine/pmfg-codependence-golden.json";
import { describeNifty, loadNifty } from "../../test/support/nifty.ts";
import { kendallMatrix } from "./kendall.ts";
import { buildReturnsPanel, windowMembers, windowSeries } from "./window.ts";

const TOL = 1e-9;

function compare(got: Float64Array, want: (number | null)[][]): void {
  const n = want.length;
  let worst = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) worst = Math.max(worst, Math.abs(got[i * n + j] - (want[i][j] ?? 0)));
  expect(worst).toBeLessThan(TOL);
}

describe("Kendall tau-b against scipy, generated panels", () => {
  for (const c of golden.codependence) {
    test(c.id, () => compare(kendallMatrix(c.returns.map((r) => Float64Array.from(r))), c.kendall));
  }
  test("the fixtures hold scipy's nan for the constant series", () => {
    expect(golden.codependence.find((c) => c.id === "ties-n10-L40")!.kendall[9][0]).toBeNull();
  });
});

describeNifty("Kendall tau-b against scipy, NIFTY-50 windows", () => {
  const input = loadNifty();
  for (const c of golden.nifty?.codependence ?? []) {
    test(c.id, () => {
      const t = input.labels.findLastIndex((l) => l.slice(0, 10) <= c.asof);
      const panel = buildReturnsPanel(input.closes, t, t, c.lookback);
      const nodes = windowMembers(panel, t).nodes;
      expect(nodes.map((i) => input.symbols[i])).toEqual(c.nodes);
      compare(kendallMatrix(windowSeries(panel, nodes, t), 0, c.lookback), c.kendall);
    });
  }
});
