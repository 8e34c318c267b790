/**
 * Signal or noise through the whole engine (computeChart and the payload of docs/api.md
 * § Signal or noise): the filters sit between the correlation and the graph, and the payload carries the
 * spectrum, the matrix, each edge's reliability, per-stock percentiles and community stability
 * where the issue names them. The numerics have their own golden tests.
 */
import { describe, expect, test } from "bun:test";
import { factorInput } from "../../test/support/engine/random-returns.ts";
import { parseChartParams } from "../http/params/params.ts";
import { bootstrapWindow, windowCorrelation } from "./bootstrap.ts";
import { computeChart } from "./chart.ts";
import { buildGraph } from "./graph.ts";
import { louvain } from "./louvain.ts";
import { filterCorrelation } from "./random-matrix.ts";
import { round6 } from "./round.ts";
import type { ChartParams, RollingData, SeriesInput, SnapshotData } from "./types.ts";
import { buildReturnsPanel, windowMembers, windowSeries } from "./window.ts";

function params(q: string): ChartParams {
  const r = parseChartParams(new URLSearchParams(q), { defaultUniverse: "x" });
  if (!r.ok) throw new Error(r.errors.join(" | "));
  return r.params;
}
const snapshot = (input: SeriesInput, q: string) => computeChart(input, params(q)).data as SnapshotData;
const rolling = (input: SeriesInput, q: string) => computeChart(input, params(q)).data as RollingData;

/** The last bar's window: its members and their series (views of L returns). */
function lastWindow(input: SeriesInput, lookback: number) {
  const t = input.labels.length - 1;
  const panel = buildReturnsPanel(input.closes, t, t, lookback);
  const nodes = windowMembers(panel, t).nodes;
  return { nodes, series: windowSeries(panel, nodes, t) };
}

const input = factorInput(10, 80, 21);
// A constant series: dropped from every window, so it has no matrix row, percentiles or edges.
input.symbols.push("FLAT");
input.closes.push(new Float64Array(80).fill(50));

describe("denoise, detone, spectrum, include_corr", () => {
  test("the graph and corr_matrix are built from the filtered matrix, in response order", () => {
    const q = "lookback=60&denoise=mp&detone=1&include_corr=true&spectrum=true&sort=pagerank";
    const data = snapshot(input, q);
    const w = lastWindow(input, 60);
    const p = params(q);
    const raw = windowCorrelation(w.series, 0, 60, { ...p, denoise: "none", detone: 0 });
    const { corr, spectrum } = filterCorrelation(raw, 10, 60, p);
    const order = data.stocks.map((s) => s.symbol).filter((s) => s !== "FLAT");
    expect(data.graph.corr_matrix!.symbols).toEqual(order);
    const idx = (s: string) => w.nodes.indexOf(input.symbols.indexOf(s));
    data.graph.corr_matrix!.matrix.forEach((row, i) =>
      row.forEach((v, j) => expect(v).toBe(round6(corr[idx(order[i]) * 10 + idx(order[j])]))),
    );
    const g = buildGraph(corr, 10, "mst", { knnK: 4, threshold: 0.5 });
    expect(data.graph.edge_list!.map((e) => [e.source, e.target])).toEqual(
      Array.from(g.src, (s, e) => [input.symbols[w.nodes[s]], input.symbols[w.nodes[g.dst[e]]]]),
    );
    expect(data.graph.spectrum).toEqual({
      eigenvalues: Array.from(spectrum!.eigenvalues, round6),
      lambda_plus: round6((1 + Math.sqrt(10 / 60)) ** 2)!,
      n_above: spectrum!.nAbove,
      absorption_ratio: round6((spectrum!.eigenvalues[0] + spectrum!.eigenvalues[1]) / 10),
    });
  });

  test("without filters the matrix is the correlation itself; the spectrum shows with include_graph=false too", () => {
    const w = lastWindow(input, 40);
    const raw = windowCorrelation(w.series, 0, 40, params("lookback=40"));
    const m = snapshot(input, "lookback=40&include_corr=true").graph.corr_matrix!;
    expect(m.matrix[0]![1]).toBe(round6(raw[1]));
    const bare = snapshot(input, "lookback=40&spectrum=true&include_graph=false").graph;
    expect(Object.keys(bare)).toEqual(["nodes", "edges", "method", "spectrum"]);
    expect(bare.spectrum!.eigenvalues.length).toBe(10);
  });

  test("rolling: the latest graph carries them; with include_graph=all every as-of's graph does", () => {
    const latest = rolling(input, "lookback=40&periods=5&spectrum=true&include_corr=true");
    expect(latest.latest_graph.spectrum!.eigenvalues.length).toBe(10);
    expect(latest.graphs).toBeUndefined();
    const all = rolling(input, "lookback=40&periods=5&spectrum=true&include_corr=true&include_graph=all");
    expect(all.graphs!.length).toBe(5);
    for (const g of all.graphs!) {
      expect(g.spectrum!.eigenvalues.length).toBe(10);
      expect(g.corr_matrix!.symbols.length).toBe(10);
    }
    expect(all.graphs![4]!.spectrum).toEqual(latest.latest_graph.spectrum!);
  });
});

describe("bootstrap", () => {
  const q = "lookback=60&bootstrap=25&seed=77";

  test("reliability on every edge, percentiles per stock and metric, community_stability beside modularity", () => {
    const data = snapshot(input, q);
    const w = lastWindow(input, 60);
    const p = params(q);
    const g = buildGraph(windowCorrelation(w.series, 0, 60, p), 10, "mst", { knnK: 4, threshold: 0.5 });
    const community = louvain(g).community;
    const want = bootstrapWindow(w.series, 0, 60, p, { graph: g, community }, 25, 77);
    data.graph.edge_list!.forEach((e, k) => expect(e.reliability).toBe(round6(want.reliability[k])!));
    expect(data.graph.community_stability).toBe(round6(want.communityStability!));
    expect(data.graph_stats![0]!.community_stability).toBe(data.graph.community_stability!);
    for (const s of data.stocks) {
      const pos = w.nodes.indexOf(input.symbols.indexOf(s.symbol));
      for (const m of p.metrics) {
        expect(s[`${m}_p05`]).toBe(pos < 0 ? null : round6(want.p05[m]![pos]));
        expect(s[`${m}_p95`]).toBe(pos < 0 ? null : round6(want.p95[m]![pos]));
      }
    }
    expect(data.stocks.find((s) => s.symbol === "FLAT")!.pagerank_p05).toBeNull();
  });

  test("rolling: percentiles on every point, community_stability per as-of, reliability on the latest graph's edges", () => {
    const data = rolling(input, `${q}&periods=4&metrics=pagerank`);
    for (const s of data.stocks) for (const pt of s.points) expect(Object.keys(pt)).toContain("pagerank_p95");
    expect(data.graph_stats!.every((g) => typeof g.community_stability === "number")).toBe(true);
    expect(data.latest_graph.edge_list!.every((e) => typeof e.reliability === "number")).toBe(true);
    // The latest as-of is the snapshot at the last bar.
    const snap = snapshot(input, `${q}&metrics=pagerank`);
    expect(data.latest_graph.edge_list).toEqual(snap.graph.edge_list!);
  });

  test("include_graph=false: percentiles only", () => {
    const data = snapshot(input, `${q}&include_graph=false&metrics=degree_strength`);
    expect(data.graph).toEqual({ nodes: 10, edges: 9, method: "mst" });
    expect(typeof data.stocks[0]!.degree_strength_p05).toBe("number");
    expect(data.graph_stats).toBeUndefined();
  });
});
