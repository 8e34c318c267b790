/**
 * Graph statistics and TMFG against bench/networkx/generate_research_fixtures.py (networkx 2.8,
 * the literal reference TMFG in bench/networkx/tmfg_reference.py), within 1e-6.
 */
import { describe, expect, test } from "bun:test";
import { describeNifty, loadNifty } from "../../test/support/nifty.ts";
import { computeChart } from "./chart.ts";
import { correlationMatrix } from "./correlation.ts";
import research from "../../test/fixtures/engine/research-golden.json";
import { buildGraph } from "./graph.ts";
import { graphStats } from "./graph-summary.ts";
import { parseChartParams } from "../http/params/params.ts";
import { METRICS, type GraphStatsOut, type SnapshotData } from "./types.ts";

const TOL = 1e-6 + 1e-12;
type Stats = { mean_abs_corr: number | null; tree_length: number; avg_shortest_path: number | null };

function near(got: number | null | undefined, want: number | null, what: string): void {
  if (want === null) {
    expect(got ?? null, what).toBeNull();
    return;
  }
  const diff = Math.abs((got as number) - want);
  if (!(diff <= TOL)) throw new Error(`${what}: got ${got}, reference ${want} (diff ${diff})`);
}

function checkStats(
  got: GraphStatsOut | { mean_abs_corr: number | null; tree_length: number | null; avg_shortest_path: number | null },
  want: Stats,
  id: string,
): void {
  near(got.mean_abs_corr, want.mean_abs_corr, `${id} mean_abs_corr`);
  near(got.tree_length, want.tree_length, `${id} tree_length`);
  near(got.avg_shortest_path, want.avg_shortest_path, `${id} avg_shortest_path`);
}

describeNifty("graph statistics and TMFG on NIFTY-50 (networkx 2.8, reference TMFG)", () => {
  const input = loadNifty();
  for (const c of research.graphs) {
    test(c.id, () => {
      const q = new URLSearchParams({ asof: c.input.asof, lookback: String(c.input.lookback), graph_method: c.input.graph_method });
      const parsed = parseChartParams(q, { defaultUniverse: "nifty" });
      if (!parsed.ok) throw new Error(parsed.errors.join("; "));
      const data = computeChart(input, parsed.params).data as SnapshotData;
      expect(data.asof_date.slice(0, 10)).toBe(c.expected.asof_date);
      expect(data.graph_stats).toHaveLength(1);
      checkStats(data.graph_stats![0], c.expected.stats as Stats, c.id);
      const edges = data.graph.edge_list!.map((e) => `${e.source}|${e.target}`).sort();
      expect(edges).toEqual(c.expected.edges.map(([a, b]) => `${a}|${b}`).sort());
      expect(data.graph_stats![0].edges).toBe(c.expected.edges.length);
      const metrics = (c.expected as { metrics?: Record<string, Record<string, number | null>> }).metrics;
      if (!metrics) return;
      const bySymbol = new Map(data.stocks.map((s) => [s.symbol, s]));
      for (const m of METRICS) for (const sym of c.expected.nodes) near(bySymbol.get(sym)![m], metrics[m][sym], `${c.id} ${m} ${sym}`);
    });
  }
});

describe("graph statistics on hand-made graphs (networkx 2.8)", () => {
  for (const c of research.small) {
    test(c.id, () => {
      const rets = c.input.returns.map((r) => Float64Array.from(r));
      const corr = correlationMatrix(rets, "pearson");
      const method = c.input.graph_method as "threshold" | "tmfg" | "mst";
      const g = buildGraph(corr, rets.length, method, { knnK: 4, threshold: c.input.corr_threshold });
      const names = c.expected.nodes;
      expect(Array.from(g.src, (s, e) => `${names[s]}|${names[g.dst[e]]}`).sort()).toEqual(
        c.expected.edges.map(([a, b]) => `${a}|${b}`).sort(),
      );
      const s = graphStats(g, corr, method === "mst", null);
      checkStats(
        { mean_abs_corr: s.meanAbsCorr, tree_length: s.treeLength, avg_shortest_path: s.avgShortestPath },
        c.expected.stats as Stats,
        c.id,
      );
    });
  }
});
