/**
 * SlidingKendall / kendallRolling: every matrix bit for bit equal to kendallMatrix on the same
 * window, whatever the moves (one bar, several, a jump past maxSlide, backwards, the same window
 * again) and node sets (kept, dropped, new, reordered), on tied and untied series, with the
 * WebAssembly kernel and with the scalar loop.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { factorReturns, mulberry32 } from "../../test/support/engine/random-returns.ts";
import { kendallMatrix, kendallRolling, SlidingKendall } from "./kendall.ts";

/** n series of `bars` values; tied: small integers (ties in x, y and jointly), else factor returns. */
function panel(n: number, bars: number, seed: number, tied: boolean): Float64Array[] {
  if (!tied) return factorReturns(n, bars, seed);
  const rand = mulberry32(seed);
  return Array.from({ length: n }, () => Float64Array.from({ length: bars }, () => Math.floor(rand() * 5) - 2));
}

function expectSame(got: Float64Array, want: Float64Array): void {
  expect(got.length).toBe(want.length);
  for (let k = 0; k < want.length; k++) if (!Object.is(got[k], want[k])) expect([k, got[k]]).toEqual([k, want[k]]);
}

describe("SlidingKendall", () => {
  test("property: equals kendallMatrix bit for bit over random moves and node sets", () => {
    const moves = fc.array(fc.integer({ min: -3, max: 12 }), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 9 }),
        fc.integer({ min: 2, max: 40 }),
        fc.integer(),
        fc.boolean(),
        fc.boolean(),
        moves,
        (n, L, seed, tied, scalar, steps) => {
          const bars = L + 60;
          const series = panel(n, bars, seed, tied);
          const sliding = new SlidingKendall(series, L, undefined, scalar ? "scalar" : "blas");
          const rand = mulberry32(seed ^ 0x5bd1e995);
          let start = 0;
          for (const delta of steps) {
            start = Math.min(bars - L, Math.max(0, start + delta));
            // A random subset in random order (sometimes all of them).
            const nodes = Array.from({ length: n }, (_, i) => i).filter(() => rand() < 0.8);
            for (let i = nodes.length - 1; i > 0; i--) {
              const j = Math.floor(rand() * (i + 1));
              [nodes[i], nodes[j]] = [nodes[j], nodes[i]];
            }
            const want = kendallMatrix(
              nodes.map((i) => series[i]),
              start,
              L,
            );
            expectSame(sliding.matrixAt(start, nodes), want);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  test("consecutive windows slide (no recount) and a long jump or a step back recounts", () => {
    const L = 30;
    const series = panel(6, 200, 4, false);
    const all = [0, 1, 2, 3, 4, 5];
    const s = new SlidingKendall(series, L);
    s.matrixAt(10, all);
    expect(s.fullPairs).toBe(15);
    for (let t = 11; t < 40; t++) expectSame(s.matrixAt(t, all), kendallMatrix(series, t, L));
    expect(s.fullPairs).toBe(15);
    expect(s.slides).toBe(29);
    expectSame(s.matrixAt(39, all), kendallMatrix(series, 39, L)); // the same window: nothing moves
    expect(s.fullPairs).toBe(15);
    expectSame(s.matrixAt(100, all), kendallMatrix(series, 100, L)); // past maxSlide
    expect(s.fullPairs).toBe(30);
    expectSame(s.matrixAt(99, all), kendallMatrix(series, 99, L)); // backwards
    expect(s.fullPairs).toBe(45);
    // A node that leaves and comes back is recounted against the others; the rest slide.
    s.matrixAt(100, [0, 1, 2, 3, 4]);
    expect(s.fullPairs).toBe(45);
    expectSame(s.matrixAt(101, all), kendallMatrix(series, 101, L));
    expect(s.fullPairs).toBe(50);
  });

  test("constant windows give 0 (as kendallMatrix), and a series turning constant or back slides exactly", () => {
    const L = 5;
    const x = Float64Array.from([1, 2, 3, 3, 3, 3, 3, 3, 4, 1, 2]);
    const y = Float64Array.from([5, 4, 4, 2, 1, 0, 2, 7, 7, 7, 1]);
    const s = new SlidingKendall([x, y], L);
    for (let t = 0; t + L <= x.length; t++) expectSame(s.matrixAt(t, [0, 1]), kendallMatrix([x, y], t, L));
    expect(s.slides).toBe(x.length - L);
  });

  test("kendallRolling: all series, one matrix per start", () => {
    const series = panel(5, 120, 8, true);
    const starts = [0, 1, 2, 5, 6, 40, 41, 3];
    const got = kendallRolling(series, starts, 50);
    expect(got.length).toBe(starts.length);
    starts.forEach((t, q) => expectSame(got[q], kendallMatrix(series, t, 50)));
  });
});
