/**
 * The signal-or-noise literal references on NIFTY-50 windows (bench/networkx/generate_signal_noise_fixtures.py):
 * the spectrum and filtered matrices within 1e-9 of numpy, bootstrap=200 edge counts exactly and
 * percentiles within 1e-6. Outside test:unit: a 200-replicate window takes a while.
 */
import { expect, test } from "bun:test";
import golden from "../fixtures/engine/signal-noise-golden.json";
import { describeNifty, loadNifty } from "../support/nifty.ts";
import {
  type BootstrapCaseParams,
  type BootstrapExpected,
  checkBootstrap,
  checkFilters,
  type FilterExpected,
} from "../support/engine/signal-noise-golden.ts";
import { buildReturnsPanel, windowMembers, windowSeries } from "../../src/engine/window.ts";

function window(asof: string, lookback: number, nodes: string[]) {
  const input = loadNifty();
  const t = input.labels.findLastIndex((l) => l.slice(0, 10) <= asof);
  const panel = buildReturnsPanel(input.closes, t, t, lookback);
  const members = windowMembers(panel, t).nodes;
  expect(members.map((i) => input.symbols[i])).toEqual(nodes);
  return windowSeries(panel, members, t);
}

describeNifty("signal or noise on NIFTY-50 windows", () => {
  for (const c of golden.nifty_filters) {
    test(`filters ${c.asof}, lookback ${c.lookback}`, () => {
      const worst = checkFilters(window(c.asof, c.lookback, c.nodes), c.lookback, "pearson", c.expected as FilterExpected);
      console.log(`filters ${c.asof} L=${c.lookback}: largest difference ${worst.toExponential(2)}`);
    });
  }
  for (const c of golden.nifty_bootstrap) {
    test(`bootstrap ${c.asof}, lookback ${c.lookback}, ${c.params.graph_method}, B=${c.params.B}`, () => {
      const worst = checkBootstrap(
        window(c.asof, c.lookback, c.nodes),
        c.lookback,
        c.params as BootstrapCaseParams,
        c.expected as BootstrapExpected,
      );
      console.log(`bootstrap ${c.asof} ${c.params.graph_method} B=${c.params.B}: largest percentile difference ${worst.toExponential(2)}`);
    });
  }
});
