/**
 * The research options (issue 26) through the whole engine (computeChart, the payload of
 * docs/api.md § Hierarchy, § Portfolio weights, § Kendall, distance correlation and PMFG):
 * graph_method=pmfg, corr_method=kendall|distance, hierarchy, clusters, weights and turnover. The numerics have their
 * own golden tests; these check that the request reaches them with the window the engine uses, and
 * what the payload makes of their output: against the literal references' fixtures where those
 * have the returns (HRP panels, NIFTY-50 windows), else against the modules called directly.
 */
import { describe, expect, test } from "bun:test";
import codependence from "../../test/fixtures/engine/pmfg-codependence-golden.json";
import hrpGolden from "../../test/fixtures/engine/hrp-golden.json";
import { factorInput } from "../../test/support/engine/random-returns.ts";
import { describeNifty, loadNifty } from "../../test/support/nifty.ts";
import { parseChartParams } from "../http/params/params.ts";
import { computeChart } from "./chart.ts";
import { correlationMatrix } from "./correlation.ts";
import { marketResiduals } from "./correlation-options.ts";
import { distanceCorrelationMatrix } from "./distance-correlation.ts";
import { edgeLength } from "./graph.ts";
import { correlationDistance, flatClusters, leafOrder, linkage } from "./hierarchy.ts";
import { hrpWeights, sampleCovariance, turnoverAligned } from "./hrp.ts";
import { kendallMatrix } from "./kendall.ts";
import { pmfg } from "./pmfg.ts";
import type { ChartParams, RollingData, SeriesInput, SnapshotData } from "./types.ts";
import { buildReturnsPanel, windowMembers, windowSeries, windowStart } from "./window.ts";

function params(q: string): ChartParams {
  const r = parseChartParams(new URLSearchParams(q), { defaultUniverse: "x" });
  if (!r.ok) throw new Error(r.errors.join(" | "));
  return r.params;
}

const snapshot = (input: SeriesInput, q: string) => computeChart(input, params(q)).data as SnapshotData;
const rolling = (input: SeriesInput, q: string) => computeChart(input, params(q)).data as RollingData;

/** Closes whose log returns are the given returns (to rounding), one bar before the first return. */
function fromReturns(returns: number[][]): SeriesInput {
  const L = returns[0]!.length;
  const labels = Array.from(
    { length: L + 1 },
    (_, k) => `${new Date(Date.UTC(2020, 0, 1) + k * 864e5).toISOString().slice(0, 10)}T00:00:00+00:00`,
  );
  const closes = returns.map((r) => {
    const c = new Float64Array(L + 1);
    c[0] = 100;
    for (let k = 0; k < L; k++) c[k + 1] = c[k]! * Math.exp(r[k]!);
    return c;
  });
  return { symbols: returns.map((_, i) => `S${i}`), labels, closes };
}

/** The engine's window of the last bar: its members' return series (whole panel rows), start and length. */
function lastWindow(input: SeriesInput, lookback: number) {
  const t = input.labels.length - 1;
  const panel = buildReturnsPanel(input.closes, t, t, lookback);
  const nodes = windowMembers(panel, t).nodes;
  return { nodes, series: nodes.map((i) => panel.returns[i]!), start: windowStart(panel, t), L: lookback, t, panel };
}

const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

describe("graph_method=pmfg", () => {
  const input = factorInput(30, 200, 4);
  test("the graph is pmfg's on the window's matrix: 3(n−2) edges holding the mst's", () => {
    const data = snapshot(input, "lookback=120&graph_method=pmfg");
    const w = lastWindow(input, 120);
    const corr = correlationMatrix(w.series, "pearson", w.start, w.L);
    const { pairs } = pmfg(corr, w.nodes.length);
    const want = new Set<string>();
    for (let e = 0; e < pairs.length; e += 2)
      want.add(pairKey(input.symbols[w.nodes[pairs[e]!]!]!, input.symbols[w.nodes[pairs[e + 1]!]!]!));
    expect(data.graph).toMatchObject({ method: "pmfg", nodes: 30, edges: 3 * 28 });
    expect(new Set(data.graph.edge_list!.map((e) => pairKey(e.source, e.target)))).toEqual(want);
    const mst = snapshot(input, "lookback=120&graph_method=mst").graph.edge_list!;
    for (const e of mst) expect(want.has(pairKey(e.source, e.target))).toBe(true);
  });
});

describe("corr_method=kendall and corr_method=distance", () => {
  const input = factorInput(12, 150, 6);
  for (const [method, matrix] of [
    ["kendall", kendallMatrix],
    ["distance", distanceCorrelationMatrix],
  ] as const) {
    test(`${method}: every edge of the complete graph carries the module's value for the window`, () => {
      const data = snapshot(input, `lookback=100&graph_method=complete&corr_method=${method}`);
      const w = lastWindow(input, 100);
      const corr = matrix(w.series, w.start, w.L);
      const n = w.nodes.length;
      const index = new Map(w.nodes.map((i, p) => [input.symbols[i]!, p]));
      expect(data.graph.edge_list).toHaveLength((n * (n - 1)) / 2);
      for (const e of data.graph.edge_list!) {
        const want = corr[index.get(e.source)! * n + index.get(e.target)!]!;
        expect(Math.abs(e.corr - want)).toBeLessThanOrEqual(5e-7);
        if (method === "distance") expect(e.corr).toBeGreaterThanOrEqual(0);
      }
    });
  }

  test("kendall rolling (its counts slid bar by bar) equals a snapshot at every as-of, symbols joining and leaving", () => {
    const held = factorInput(10, 140, 9);
    // Two symbols with gaps: windows' members change as the as-ofs move.
    for (const k of [30, 31, 32, 95]) held.closes[3]![k] = Number.NaN;
    for (const k of [60, 61]) held.closes[7]![k] = Number.NaN;
    const q = "lookback=40&graph_method=complete&corr_method=kendall&include_graph=all";
    const roll = rolling(held, `${q}&periods=25`);
    expect(roll.graphs).toHaveLength(25);
    roll.asof_dates.forEach((asof, k) => {
      const snap = snapshot(held, `${q}&asof=${asof.slice(0, 10)}`);
      expect(roll.graphs![k]!.edge_list).toEqual(snap.graph.edge_list!);
    });
  });

  test("market_mode=remove applies before kendall and distance: their matrix of the market residuals", () => {
    const w = lastWindow(input, 100);
    const residuals = marketResiduals(w.series, w.start, w.L);
    const n = w.nodes.length;
    const index = new Map(w.nodes.map((i, p) => [input.symbols[i]!, p]));
    for (const [method, matrix] of [
      ["kendall", kendallMatrix],
      ["distance", distanceCorrelationMatrix],
    ] as const) {
      const corr = matrix(residuals, 0, w.L);
      const data = snapshot(input, `lookback=100&graph_method=complete&corr_method=${method}&market_mode=remove`);
      for (const e of data.graph.edge_list!) {
        expect(Math.abs(e.corr - corr[index.get(e.source)! * n + index.get(e.target)!]!)).toBeLessThanOrEqual(5e-7);
      }
    }
  });
});

describe("hierarchy and clusters", () => {
  const input = factorInput(20, 120, 8);

  test("snapshot: scipy's Z over the window's symbols, leaf order and flat clusters, as the module gives them", () => {
    for (const method of ["single", "average", "complete", "ward"] as const) {
      for (const distance of ["unsigned", "signed"] as const) {
        const data = snapshot(input, `lookback=90&hierarchy=${method}&hierarchy_distance=${distance}&clusters=4`);
        const w = lastWindow(input, 90);
        const n = w.nodes.length;
        const corr = correlationMatrix(w.series, "pearson", w.start, w.L);
        const link = linkage(correlationDistance(corr, n, distance === "signed"), n, method);
        const h = data.hierarchy!;
        expect(h).toMatchObject({ method, distance, asof_date: data.asof_date });
        expect(h.leaves).toEqual(w.nodes.map((i) => input.symbols[i]));
        expect(h.merges).toHaveLength(n - 1);
        h.merges.forEach(([a, b, height, size], r) => {
          expect([a, b, size]).toEqual([link.merges[r * 4], link.merges[r * 4 + 1], link.merges[r * 4 + 3]]);
          expect(Math.abs(height! - link.merges[r * 4 + 2]!)).toBeLessThanOrEqual(5e-7);
        });
        expect(h.leaf_order).toEqual(Array.from(leafOrder(link, n), (p) => h.leaves[p]));
        const labels = flatClusters(link, n, 4);
        expect(h.clusters).toEqual(Object.fromEntries(h.leaves.map((s, p) => [s, labels[p]])));
        expect(h.n_clusters).toBe(Math.max(...labels));
        for (const s of data.stocks) expect(s.cluster).toBe(h.clusters![s.symbol]!);
      }
    }
  });

  test("single linkage on the unsigned distance is the mst: its heights are the mst's edge lengths, sorted", () => {
    const data = snapshot(input, "lookback=90&hierarchy=single&graph_method=mst");
    const heights = data.graph.edge_list!.map((e) => edgeLength(e.weight)).sort((a, b) => a - b);
    data.hierarchy!.merges.forEach(([, , h], r) => expect(Math.abs(h! - heights[r]!)).toBeLessThan(1e-5));
  });

  test("k at or above the symbols in the window gives each its own cluster; k = 1 one cluster", () => {
    const all = snapshot(input, "lookback=90&hierarchy=average&clusters=500").hierarchy!;
    expect(all.n_clusters).toBe(20);
    expect(new Set(Object.values(all.clusters!)).size).toBe(20);
    const one = snapshot(input, "lookback=90&hierarchy=average&clusters=1");
    expect(one.hierarchy!.n_clusters).toBe(1);
    for (const s of one.stocks) expect(s.cluster).toBe(1);
  });

  test("without clusters there is no cluster field; without hierarchy no hierarchy; include_graph=false keeps both", () => {
    const plain = snapshot(input, "lookback=90");
    expect(plain.hierarchy).toBeUndefined();
    expect("cluster" in plain.stocks[0]!).toBe(false);
    const tree = snapshot(input, "lookback=90&hierarchy=ward&include_graph=false");
    expect(tree.hierarchy!.merges).toHaveLength(19);
    expect(tree.hierarchy!.clusters).toBeUndefined();
    expect("cluster" in tree.stocks[0]!).toBe(false);
  });

  test("rolling: the latest as-of's tree, every as-of's with include_graph=all, clusters on every point", () => {
    const gappy = factorInput(15, 160, 3);
    gappy.closes[2]!.fill(NaN, 0, 120); // joins late
    const q = "lookback=30&periods=8&step=4&hierarchy=complete&clusters=3";
    const data = rolling(gappy, q);
    expect(data.latest_hierarchy!.asof_date).toBe(data.asof_dates.at(-1)!);
    expect(data.hierarchies).toBeUndefined();
    const all = rolling(gappy, `${q}&include_graph=all`);
    expect(all.hierarchies!.map((h) => h.asof_date)).toEqual(all.asof_dates);
    expect(all.hierarchies!.at(-1)).toEqual(all.latest_hierarchy!);
    for (const [k, h] of all.hierarchies!.entries()) {
      expect(h.merges).toHaveLength(h.leaves.length - 1);
      for (const s of all.stocks) {
        const c = s.points[k]!.cluster;
        if (h.leaves.includes(s.symbol)) expect(c).toBe(h.clusters![s.symbol]!);
        else expect(c).toBeNull();
      }
    }
    // The late symbol is absent from the early trees.
    expect(all.hierarchies![0]!.leaves).not.toContain("S2");
    expect(all.latest_hierarchy!.leaves).toContain("S2");
  });
});

describe("weights", () => {
  test("HRP against the literal reference's panels, every linkage and distance, through the engine's window", () => {
    for (const p of hrpGolden.panels.filter((x) => x.n >= 3)) {
      const input = fromReturns(p.returns);
      const L = p.returns[0]!.length;
      for (const c of p.cases) {
        const data = snapshot(
          input,
          `lookback=${L}&weights=hrp&hierarchy=${c.method}&hierarchy_distance=${c.signed ? "signed" : "unsigned"}`,
        );
        const what = `${p.id} ${c.method} ${c.signed}`;
        expect(data.hierarchy!.leaf_order, what).toEqual(c.order.map((i) => `S${i}`));
        data.stocks.forEach((s, i) => expect(Math.abs(s.weight! - c.weights[i]!), what).toBeLessThanOrEqual(5e-7));
        expect(data.weights).toEqual({ method: "hrp" });
      }
    }
  });

  test("weights=hrp without a hierarchy is single linkage on the unsigned distance; equal and inverse_variance need no tree", () => {
    const input = factorInput(10, 100, 2);
    const hrp = snapshot(input, "lookback=60&weights=hrp");
    expect(hrp.hierarchy).toMatchObject({ method: "single", distance: "unsigned" });
    const w = lastWindow(input, 60);
    const corr = correlationMatrix(w.series, "pearson", w.start, w.L);
    const order = leafOrder(linkage(correlationDistance(corr, 10), 10, "single"), 10);
    const want = hrpWeights(sampleCovariance(w.series, w.start, w.L), 10, order);
    hrp.stocks.forEach((s, i) => expect(Math.abs(s.weight! - want[i]!)).toBeLessThanOrEqual(5e-7));
    const equal = snapshot(input, "lookback=60&weights=equal");
    expect(equal.hierarchy).toBeUndefined();
    for (const s of equal.stocks) expect(s.weight).toBe(0.1);
    const ivp = snapshot(input, "lookback=60&weights=inverse_variance");
    const cov = sampleCovariance(w.series, w.start, w.L);
    let total = 0;
    for (let i = 0; i < 10; i++) total += 1 / cov[i * 10 + i]!;
    ivp.stocks.forEach((s, i) => expect(Math.abs(s.weight! - 1 / cov[i * 10 + i]! / total)).toBeLessThanOrEqual(5e-7));
    for (const d of [hrp, equal, ivp]) {
      const sum = d.stocks.reduce((a, s) => a + s.weight!, 0);
      expect(Math.abs(sum - 1)).toBeLessThanOrEqual(10 * 5e-7);
      for (const s of d.stocks) expect(s.weight!).toBeGreaterThanOrEqual(0);
    }
  });

  test("rolling: a weight on every point, turnover between consecutive as-ofs (null first), symbols joining counted as bought", () => {
    const input = factorInput(12, 200, 5);
    input.closes[3]!.fill(NaN, 0, 150); // joins within the range
    const q = "lookback=40&periods=10&step=5&weights=hrp&hierarchy=average";
    const data = rolling(input, q);
    const turnover = data.weights!.turnover!;
    expect(data.weights!.method).toBe("hrp");
    expect(turnover).toHaveLength(10);
    expect(turnover[0]).toBeNull();
    // Recompute from the engine's own windows, unrounded.
    const p = params(q);
    const ts = data.asof_dates.map((d) => input.labels.indexOf(d));
    const panel = buildReturnsPanel(input.closes, ts[0]!, ts.at(-1)!, p.lookback);
    let prev: { nodes: number[]; w: Float64Array } | null = null;
    for (const [k, t] of ts.entries()) {
      const nodes = windowMembers(panel, t).nodes;
      const series = windowSeries(panel, nodes, t);
      const n = nodes.length;
      const corr = correlationMatrix(series, "pearson", 0, p.lookback);
      const order = leafOrder(linkage(correlationDistance(corr, n), n, "average"), n);
      const w = hrpWeights(sampleCovariance(series, 0, p.lookback), n, order);
      for (const s of data.stocks) {
        const i = input.symbols.indexOf(s.symbol);
        const at = nodes.indexOf(i);
        if (at < 0) expect(s.points[k]!.weight).toBeNull();
        else expect(Math.abs(s.points[k]!.weight! - w[at]!)).toBeLessThanOrEqual(5e-7);
      }
      if (prev) expect(Math.abs(turnover[k]! - turnoverAligned(prev.nodes, prev.w, nodes, w))).toBeLessThanOrEqual(5e-7);
      prev = { nodes, w };
    }
    expect(data.stocks[3]!.points[0]!.weight).toBeNull();
    expect(data.stocks[3]!.points.at(-1)!.weight).toBeGreaterThan(0);
    for (const x of turnover.slice(1)) expect(x!).toBeGreaterThan(0);
  });

  test("equal weights over an unchanged window set turn over nothing", () => {
    const data = rolling(factorInput(8, 120, 1), "lookback=30&periods=5&weights=equal");
    expect(data.weights!.turnover).toEqual([null, 0, 0, 0, 0]);
    expect(data.latest_hierarchy).toBeUndefined();
  });
});

describe("sizes", () => {
  test("include_graph=all counts every as-of's merges with the edges against the row cap", () => {
    const input = factorInput(200, 120, 9);
    const q = "lookback=20&periods=90&graph_method=mst&include_graph=all&metrics=degree_strength";
    // 90 × 200 points + 90 × 199 edges = 35,910 rows: fine; with 90 × 199 merges more: 53,820.
    expect(() => computeChart(input, params(q))).not.toThrow();
    expect(() => computeChart(input, params(`${q}&hierarchy=single`))).toThrow(/and hierarchy merges \(\d+\) already exceed 50000 rows/);
  });
});

describeNifty("issue 26 options on NIFTY-50 windows through the engine", () => {
  const input = loadNifty();
  for (const c of codependence.nifty?.pmfg ?? []) {
    test(`pmfg ${c.id}: the literal networkx reference's edges`, () => {
      const data = snapshot(input, `asof=${c.asof}&lookback=${c.lookback}&graph_method=pmfg`);
      expect(data.asof_date.slice(0, 10)).toBe(c.asof_date);
      const want = new Set(c.edges.map(([a, b]) => pairKey(a!, b!)));
      expect(new Set(data.graph.edge_list!.map((e) => pairKey(e.source, e.target)))).toEqual(want);
    });
  }
  for (const c of codependence.nifty?.codependence ?? []) {
    for (const method of ["kendall", "distance"] as const) {
      test(`${method} ${c.id}: scipy's / the numpy reference's matrix on every edge`, () => {
        const data = snapshot(
          input,
          `asof=${c.asof}&lookback=${c.lookback}&graph_method=complete&corr_method=${method}&include_graph=true`,
        );
        const want = c[method] as number[][];
        const index = new Map(c.nodes.map((s, i) => [s, i]));
        let worst = 0;
        for (const e of data.graph.edge_list!) {
          worst = Math.max(worst, Math.abs(e.corr - want[index.get(e.source)!]![index.get(e.target)!]!));
        }
        expect(worst).toBeLessThanOrEqual(1e-6);
      });
    }
  }
  test("single linkage heights are the mst's edge lengths; HRP weights are positive and sum to 1", () => {
    for (const asof of ["2021-03-31", "2023-08-31", "2025-09-30"]) {
      const data = snapshot(input, `asof=${asof}&hierarchy=single&weights=hrp&clusters=6`);
      const heights = data.graph.edge_list!.map((e) => edgeLength(e.weight)).sort((a, b) => a - b);
      data.hierarchy!.merges.forEach(([, , h], r) => expect(Math.abs(h! - heights[r]!)).toBeLessThan(1e-5));
      const weights = data.stocks.filter((s) => s.weight !== null).map((s) => s.weight!);
      expect(weights.length).toBe(data.hierarchy!.leaves.length);
      expect(Math.abs(weights.reduce((a, b) => a + b, 0) - 1)).toBeLessThan(1e-4);
      expect(Math.min(...weights)).toBeGreaterThan(0);
      expect(data.hierarchy!.n_clusters).toBeLessThanOrEqual(6);
    }
  });
});
