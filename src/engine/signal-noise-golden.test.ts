/**
 * Signal or noise against its literal references (bench/networkx/generate_signal_noise_fixtures.py):
 * SplitMix64 row draws exactly, the spectrum and the filtered matrices within 1e-9 of numpy, the
 * bootstrap's edge counts exactly and its percentiles within 1e-6 of networkx + numpy, and the
 * adjusted Rand index against sklearn, on the generated panels (n > L, ties, duplicated and negated
 * series). The NIFTY-50 windows: test/engine/signal-noise-nifty.test.ts.
 */
import { describe, expect, test } from "bun:test";
import golden from "../../test/fixtures/engine/signal-noise-golden.json";
import {
  type BootstrapCaseParams,
  type BootstrapExpected,
  checkBootstrap,
  checkFilters,
  type FilterExpected,
} from "../../test/support/engine/signal-noise-golden.ts";
import { replicateRows } from "./bootstrap.ts";
import { adjustedRandIndex } from "./sector-agreement.ts";

const panels = golden.panels as Record<string, number[][]>;
const panel = (name: string) => panels[name].map((r) => Float64Array.from(r));

describe("SplitMix64 row draws", () => {
  for (const c of golden.splitmix) {
    test(`seed ${c.seed}, replicate ${c.b}, L ${c.L}`, () => {
      expect(Array.from(replicateRows(c.seed, c.b, c.L))).toEqual(c.rows);
    });
  }
});

describe("spectrum, denoise=mp, detone=k: within 1e-9 of numpy.linalg.eigh", () => {
  for (const c of golden.filters) {
    test(c.id, () => {
      const series = panel(c.panel);
      checkFilters(series, series[0].length, c.corr_method as "pearson" | "spearman", c.expected as FilterExpected);
    });
  }
});

describe("bootstrap: edge counts exactly, percentiles within 1e-6", () => {
  for (const c of golden.bootstrap) {
    test(c.id, () => {
      const series = panel(c.panel);
      const L = series[0].length;
      const want = c.expected as BootstrapExpected;
      expect(Array.from(replicateRows(c.params.seed, 0, L))).toEqual(want.first_rows);
      checkBootstrap(series, L, c.params as BootstrapCaseParams, want);
    });
  }
});

test("adjusted Rand index: sklearn's adjusted_rand_score", () => {
  for (const c of golden.ari) {
    expect(Math.abs(adjustedRandIndex(Int32Array.from(c.a), Int32Array.from(c.b)) - c.ari)).toBeLessThan(1e-12);
  }
});
