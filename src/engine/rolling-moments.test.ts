import { describe, expect, test } from "bun:test";
import { correlationMatrix } from "./correlation.ts";
import { describeNifty, loadNifty } from "../../test/support/nifty.ts";
import { sampleSeriesInput } from "../market/sample-series.ts";
import { SlidingMoments } from "./rolling-moments.ts";
import { buildReturnsPanel, windowMembers, windowSeries } from "./window.ts";
import { mulberry32 as rng } from "../../test/support/engine/random-returns.ts";

function maxDiff(a: Float64Array, b: Float64Array): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let k = 0; k < a.length; k++) m = Math.max(m, Math.abs(a[k] - b[k]));
  return m;
}

/** Slides over as-ofs first..last by step and checks every matrix against a fresh one. */
function compareRun(closes: Float64Array[], first: number, last: number, lookback: number, step: number) {
  const panel = buildReturnsPanel(closes, first, last, lookback);
  const sm = new SlidingMoments(panel);
  let worst = 0;
  let checked = 0;
  for (let t = first; t <= last; t += step) {
    const { nodes } = windowMembers(panel, t);
    if (nodes.length < 2) continue;
    const sliding = sm.correlationAt(t, nodes);
    const fresh = correlationMatrix(windowSeries(panel, nodes, t), "pearson");
    worst = Math.max(worst, maxDiff(sliding, fresh));
    checked++;
  }
  return { worst, checked, sm };
}

describeNifty("SlidingMoments equals a from-scratch Pearson matrix within 1e-9 on the NIFTY-50", () => {
  const nifty = loadNifty();
  const idx = (date: string) => nifty.labels.findIndex((l) => l.startsWith(date));

  test("NIFTY-50, 300 as-ofs with step 1 across the ETERNAL listing, lookback 20", () => {
    const first = idx("2021-07-01");
    const { worst, checked, sm } = compareRun(nifty.closes, first, first + 299, 20, 1);
    expect(checked).toBe(300);
    expect(worst).toBeLessThan(1e-9);
    expect(sm.rowRebuilds).toBeGreaterThan(0); // ETERNAL joined mid-run
    expect(sm.fullRebuilds).toBeLessThan(10);
  });

  test("NIFTY-50, lookback 252, step 5, across the JIOFIN listing", () => {
    const first = idx("2023-06-01");
    const { worst, checked } = compareRun(nifty.closes, first, first + 400, 252, 5);
    expect(checked).toBeGreaterThan(70);
    expect(worst).toBeLessThan(1e-9);
  });
});

describe("SlidingMoments equals a from-scratch Pearson matrix within 1e-9", () => {
  test("step >= lookback rebuilds every time and still matches (synthetic sample)", () => {
    const { worst, sm } = compareRun(sampleSeriesInput().closes, 300, 900, 30, 30);
    expect(worst).toBeLessThan(1e-9);
    expect(sm.fullRebuilds).toBe(21);
  });

  test("synthetic prices with large levels, gaps and symbols leaving and rejoining", () => {
    const rand = rng(7);
    const T = 600;
    const closes = Array.from({ length: 12 }, (_, i) => {
      const c = new Float64Array(T);
      let p = 1e6 * (i + 1);
      for (let k = 0; k < T; k++) {
        p *= Math.exp(0.002 + 0.01 * (rand() - 0.5));
        c[k] = p;
      }
      return c;
    });
    closes[3].fill(NaN, 100, 103); // gap: drops out for a lookback, then rejoins
    closes[5].fill(NaN, 0, 250); // listed late
    closes[7].fill(0, 400, 401); // a zero close is not a usable bar
    const { worst, checked, sm } = compareRun(closes, 40, T - 1, 15, 1);
    expect(checked).toBe(T - 40);
    expect(worst).toBeLessThan(1e-9);
    expect(sm.rowRebuilds).toBeGreaterThanOrEqual(3);
  });
});
