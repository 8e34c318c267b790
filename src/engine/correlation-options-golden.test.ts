/**
 * corr_method=ewma (pandas ewm), shrinkage=ledoit_wolf (sklearn LedoitWolf) and market_mode=remove
 * (numpy lstsq residuals on the equal-weighted market return) against
 * bench/networkx/generate_research_fixtures.py, within 1e-6, through the whole engine: the
 * returned edges' ρ must be the reference matrix's entries.
 */
import { expect, test } from "bun:test";
import { describeNifty, loadNifty } from "../../test/support/nifty.ts";
import { computeChart } from "./chart.ts";
import { optionCorrelation } from "./correlation-options.ts";
import research from "../../test/fixtures/engine/research-golden.json";
import { parseChartParams } from "../http/params/params.ts";
import type { SnapshotData } from "./types.ts";
import { buildReturnsPanel, windowMembers, windowStart } from "./window.ts";

const TOL = 1e-6;

describeNifty("cleaner correlations on NIFTY-50 (pandas 1.5, scikit-learn 1.2, numpy)", () => {
  const input = loadNifty();
  for (const c of research.correlations) {
    test(c.id, () => {
      const q = new URLSearchParams(Object.entries(c.input).map(([k, v]): [string, string] => [k, String(v)]));
      q.set("graph_method", "complete");
      const parsed = parseChartParams(q, { defaultUniverse: "nifty" });
      if (!parsed.ok) throw new Error(parsed.errors.join("; "));
      const params = parsed.params;
      const { nodes, corr: want } = c.expected;
      // The matrix itself, every entry.
      const t = input.labels.findLastIndex((l) => l.slice(0, 10) <= c.input.asof);
      const panel = buildReturnsPanel(input.closes, t, t, params.lookback);
      const members = windowMembers(panel, t);
      expect(members.nodes.map((i) => input.symbols[i])).toEqual(nodes);
      const got = optionCorrelation(
        members.nodes.map((i) => panel.returns[i]),
        windowStart(panel, t),
        params.lookback,
        params,
      );
      const n = nodes.length;
      let worst = 0;
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) worst = Math.max(worst, Math.abs(got[i * n + j] - want[i][j]));
      expect(worst).toBeLessThan(TOL);
      // And through the engine: the complete graph's edges carry those values (rounded to 6 decimals).
      const data = computeChart(input, params).data as SnapshotData;
      const index = new Map(nodes.map((s, i) => [s, i]));
      for (const e of data.graph.edge_list!) {
        expect(Math.abs(e.corr - want[index.get(e.source)!][index.get(e.target)!])).toBeLessThan(TOL);
      }
    });
  }
});

test("market_mode=remove lowers the complete graph's mean |rho| (the market factor no longer dominates)", () => {
  // A one-factor panel: every pair is correlated through the factor alone.
  const L = 80;
  const labels = Array.from(
    { length: L + 1 },
    (_, k) => `${new Date(Date.UTC(2024, 0, 1) + k * 864e5).toISOString().slice(0, 10)}T00:00:00+05:30`,
  );
  let seed = 3;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5;
  const market = Array.from({ length: L }, rand);
  const closes = Array.from({ length: 12 }, () => {
    const c = new Float64Array(L + 1);
    c[0] = 100;
    for (let k = 0; k < L; k++) c[k + 1] = c[k] * Math.exp(0.02 * (market[k] + 0.5 * rand()));
    return c;
  });
  const input = { symbols: closes.map((_, i) => `S${i}`), labels, closes };
  const run = (mode: string) => {
    const parsed = parseChartParams(new URLSearchParams(`lookback=${L}&graph_method=complete&market_mode=${mode}`), {
      defaultUniverse: "x",
    });
    if (!parsed.ok) throw new Error(parsed.errors.join("; "));
    return (computeChart(input, parsed.params).data as SnapshotData).graph_stats![0].mean_abs_corr!;
  };
  expect(run("keep")).toBeGreaterThan(0.6);
  expect(run("remove")).toBeLessThan(0.25);
});
