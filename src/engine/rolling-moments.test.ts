import { describe, expect, test } from "bun:test";
import { correlationMatrix, pearsonFromMoments } from "./correlation.ts";
import { describeNifty, loadNifty } from "../../test/support/nifty.ts";
import { sampleSeriesInput } from "../market/sample-series.ts";
import { SlidingMoments } from "./rolling-moments.ts";
import { buildReturnsPanel, windowMembers, windowSeries, windowStart } from "./window.ts";
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

describe("a full rebuild", () => {
  test("gives the cross sums of a plain loop summing in bar order, bit for bit (the WebAssembly kernel's path)", () => {
    const rand = rng(17);
    const n = 40;
    const bars = 90;
    const closes = Array.from({ length: n }, () => {
      let p = 100;
      return Float64Array.from({ length: bars }, () => (p *= Math.exp(0.02 * (rand() - 0.5))));
    });
    // A series with gaps: members change, so the rebuild covers only some rows.
    for (let k = 10; k < 20; k++) closes[5][k] = NaN;
    const L = 30;
    const t = bars - 1;
    const panel = buildReturnsPanel(closes, t, t, L);
    const { nodes } = windowMembers(panel, t);
    const got = new SlidingMoments(panel).correlationAt(t, nodes);
    // The same sums by hand: shift by the window mean, then sum k = 0..L-1 in order.
    const m0 = windowStart(panel, t);
    const m = nodes.length;
    const s = new Float64Array(m);
    const ss = new Float64Array(m);
    const sxy = new Float64Array(m * m);
    const centred = nodes.map((i) => {
      const x = panel.returns[i];
      let mean = 0;
      for (let k = m0; k < m0 + L; k++) mean += x[k];
      mean /= L;
      return Float64Array.from({ length: L }, (_, k) => x[m0 + k] - mean);
    });
    for (let a = 0; a < m; a++) {
      for (let k = 0; k < L; k++) {
        s[a] += centred[a][k];
        ss[a] += centred[a][k] * centred[a][k];
      }
      for (let b = a + 1; b < m; b++) {
        let dot = 0;
        for (let k = 0; k < L; k++) dot += centred[a][k] * centred[b][k];
        sxy[a * m + b] = dot;
      }
    }
    expect([...got]).toEqual([...pearsonFromMoments(L, s, ss, sxy, m)]);
  });
});
