/**
 * PMFG edge for edge, in insertion order, against the literal reference of
 * bench/networkx/pmfg_reference.py (networkx 2.8 check_planarity on every candidate), fixtures
 * from bench/networkx/generate_pmfg_codependence_fixtures.py: generated matrices (n = 2 … 50, exact
 * ties) and NIFTY-50 windows through the engine's own window and correlation.
 */
import { describe, expect, test } from "bun:test";
import golden from "../../test/fixtures/engine/pmfg-codependence-golden.json";
import { describeNifty, loadNifty } from "../../test/support/nifty.ts";
import { correlationMatrix } from "./correlation.ts";
import { pmfg } from "./pmfg.ts";
import { buildReturnsPanel, windowMembers, windowSeries } from "./window.ts";

describe("PMFG against the literal networkx reference, generated matrices", () => {
  for (const c of golden.pmfg) {
    test(c.id, () => {
      expect(pmfg(Float64Array.from(c.corr), c.n).pairs).toEqual(c.edges.flat());
    });
  }
});

describeNifty("PMFG against the literal networkx reference, NIFTY-50 windows", () => {
  const input = loadNifty();
  for (const c of golden.nifty?.pmfg ?? []) {
    test(c.id, () => {
      const t = input.labels.findLastIndex((l) => l.slice(0, 10) <= c.asof);
      expect(input.labels[t].slice(0, 10)).toBe(c.asof_date);
      const panel = buildReturnsPanel(input.closes, t, t, c.lookback);
      const nodes = windowMembers(panel, t).nodes;
      expect(nodes.map((i) => input.symbols[i])).toEqual(c.nodes);
      const corr = correlationMatrix(windowSeries(panel, nodes, t), "pearson", 0, c.lookback);
      const { pairs } = pmfg(corr, nodes.length);
      const got = [];
      for (let e = 0; e < pairs.length; e += 2) got.push([c.nodes[pairs[e]], c.nodes[pairs[e + 1]]]);
      expect(got).toEqual(c.edges);
    });
  }
});
