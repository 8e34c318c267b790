/**
 * Distance correlation against the literal numpy transcription of Székely, Rizzo, Bakirov (2007)
 * in bench/networkx/codependence_reference.py within 1e-9: generated panels (n = 3 … 50,
 * L = 2 … 250, repeated values, duplicated, negated, affine, constant series) and NIFTY-50
 * windows, fixtures from bench/networkx/generate_pmfg_codependence_fixtures.py.
 */
import { describe, expect, test } from "bun:test";
import golden from "../../test/fixtures/engine/pmfg-codependence-golden.json";
import { describeNifty, loadNifty } from "../../test/support/nifty.ts";
import { distanceCorrelationMatrix } from "./distance-correlation.ts";
import { buildReturnsPanel, windowMembers, windowSeries } from "./window.ts";

const TOL = 1e-9;

function compare(got: Float64Array, want: number[][]): void {
  const n = want.length;
  let worst = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) worst = Math.max(worst, Math.abs(got[i * n + j] - want[i][j]));
  expect(worst).toBeLessThan(TOL);
}

describe("distance correlation against the literal reference, generated panels", () => {
  for (const c of golden.codependence) {
    test(c.id, () => {
      const s = c.returns.map((r) => Float64Array.from(r));
      for (const kernel of ["blas", "simd", "scalar"] as const) compare(distanceCorrelationMatrix(s, 0, s[0].length, kernel), c.distance);
    });
  }
});

describeNifty("distance correlation against the literal reference, NIFTY-50 windows", () => {
  const input = loadNifty();
  for (const c of golden.nifty?.codependence ?? []) {
    test(c.id, () => {
      const t = input.labels.findLastIndex((l) => l.slice(0, 10) <= c.asof);
      const panel = buildReturnsPanel(input.closes, t, t, c.lookback);
      const nodes = windowMembers(panel, t).nodes;
      expect(nodes.map((i) => input.symbols[i])).toEqual(c.nodes);
      compare(distanceCorrelationMatrix(windowSeries(panel, nodes, t), 0, c.lookback), c.distance);
    });
  }
});
