/** Per-date structure of a rolling request (issue 15): tracked communities, graph_stats, include_graph=all. */
import { describe, expect, test } from "bun:test";
import { describeNifty, loadNifty } from "../../test/support/nifty.ts";
import { computeChart } from "./chart.ts";
import { parseChartParams } from "../http/params/params.ts";
import { ChartError, type ChartParams, type RollingData, type SeriesInput, type SnapshotData } from "./types.ts";

function params(q: string): ChartParams {
  const r = parseChartParams(new URLSearchParams(q), { defaultUniverse: "nifty" });
  if (!r.ok) throw new Error(r.errors.join(" | "));
  return r.params;
}
const rolling = (input: SeriesInput, q: string) => computeChart(input, params(q)).data as RollingData;
const snapshot = (input: SeriesInput, q: string) => computeChart(input, params(q)).data as SnapshotData;

describeNifty("rolling per-date structure", () => {
  const nifty = loadNifty();
  const data = rolling(nifty, "asof=2024-06-28&periods=12&step=5");

  test("graph_stats has one entry per as-of, each equal to the snapshot at that date", () => {
    expect(data.graph_stats!.map((s) => s.date)).toEqual(data.asof_dates);
    for (const [q, date] of data.asof_dates.entries()) {
      const snap = snapshot(nifty, `asof=${date.slice(0, 10)}`);
      expect(data.graph_stats![q]).toEqual(snap.graph_stats![0]);
    }
    const s = data.graph_stats!.at(-1)!;
    expect(s.modularity).toBe(data.latest_graph.modularity!);
    expect(s.n_communities).toBe(data.latest_graph.n_communities!);
    expect(s.edges).toBe(data.latest_graph.edges);
  });

  test("every point carries a community; each date's labels partition like that date's Louvain, one-to-one", () => {
    for (const [q, date] of data.asof_dates.entries()) {
      const snap = snapshot(nifty, `asof=${date.slice(0, 10)}`);
      const own = snap.graph.communities!;
      const toTracked = new Map<number, number>();
      const toOwn = new Map<number, number>();
      for (const stock of data.stocks) {
        const tracked = stock.points[q].community!;
        const c = own[stock.symbol];
        if (c === undefined) {
          expect(stock.points[q].community).toBeNull();
          continue;
        }
        if (toTracked.has(c)) expect(toTracked.get(c)).toBe(tracked);
        if (toOwn.has(tracked)) expect(toOwn.get(tracked)).toBe(c);
        toTracked.set(c, tracked);
        toOwn.set(tracked, c);
      }
      expect(toTracked.size).toBe(snap.graph.n_communities!);
    }
    // The first date keeps Louvain's own ids.
    const first = snapshot(nifty, `asof=${data.asof_dates[0].slice(0, 10)}`);
    for (const stock of data.stocks) expect(stock.points[0].community).toBe(first.graph.communities![stock.symbol] ?? null);
  });

  test("labels persist: most symbols keep their label from one date to the next", () => {
    let same = 0;
    let total = 0;
    for (const stock of data.stocks) {
      for (let q = 1; q < stock.points.length; q++) {
        total++;
        if (stock.points[q].community === stock.points[q - 1].community) same++;
      }
    }
    expect(same / total).toBeGreaterThan(0.5);
  });

  test("include_graph=all returns every date's edges; false drops the structure", () => {
    const all = rolling(nifty, "asof=2024-06-28&periods=4&step=5&include_graph=all");
    expect(all.graphs!.map((g) => g.asof_date)).toEqual(all.asof_dates);
    for (const [q, g] of all.graphs!.entries()) {
      const snap = snapshot(nifty, `asof=${g.asof_date.slice(0, 10)}`);
      expect(g.edge_list).toEqual(snap.graph.edge_list!);
      expect(g.edges).toBe(all.graph_stats![q].edges);
    }
    const off = rolling(nifty, "asof=2024-06-28&periods=4&include_graph=false");
    expect(off.graph_stats).toBeUndefined();
    expect(off.graphs).toBeUndefined();
    expect("community" in off.stocks[0].points[0]).toBe(false);
    expect(rolling(nifty, "asof=2024-06-28&periods=4").graphs).toBeUndefined();
  });

  test("include_graph=all counts edges in the 50000-row cap", () => {
    // 50 symbols x 40 dates = 2000 points; complete graphs add 1225 edges a date: over the cap at date 40.
    let err: unknown = null;
    try {
      computeChart(nifty, params("asof=2024-06-28&periods=40&graph_method=complete&include_graph=all"));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ChartError);
    expect((err as ChartError).kind).toBe("too-large");
    expect((err as ChartError).message).toMatch(
      /^include_graph=all returns every as-of's edges, and 2000 points plus the edges up to \d{4}-\d\d-\d\d \(\d+\) already exceed 50000 rows/,
    );
    // The same request with include_graph=true is fine, and so is mst.
    expect(rolling(nifty, "asof=2024-06-28&periods=40&graph_method=complete").asof_dates).toHaveLength(40);
    expect(rolling(nifty, "asof=2024-06-28&periods=40&include_graph=all").graphs).toHaveLength(40);
  });
});

describe("snapshot graph_stats", () => {
  test("a two-symbol graph: one edge, no path to speak of beyond it", () => {
    const labels = Array.from({ length: 8 }, (_, k) => `2024-01-0${k + 1}T00:00:00+05:30`);
    const closes = [Float64Array.from([1, 2, 3, 2, 4, 5, 4, 6]), Float64Array.from([2, 3, 5, 4, 5, 7, 6, 9])];
    const data = snapshot({ symbols: ["A", "B"], labels, closes }, "lookback=7");
    const s = data.graph_stats![0];
    const d = data.graph.edge_list![0].weight;
    expect(s.edges).toBe(1);
    expect(s.mean_abs_corr).toBe(d);
    expect(s.tree_length).toBe(s.avg_shortest_path);
  });
});
