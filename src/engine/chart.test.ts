import { describe, expect, test } from "bun:test";
import { computeChart } from "./chart.ts";
import { describeNifty, loadNifty } from "../../test/support/nifty.ts";
import { sampleSeriesInput } from "../market/sample-series.ts";
import { seriesFromFixture } from "../../test/support/engine/pipeline.ts";
import { parseChartParams } from "../http/params/params.ts";
import { ChartError, METRICS, type ChartParams, type RollingData, type SeriesInput, type SnapshotData } from "./types.ts";

function params(q: string): ChartParams {
  const r = parseChartParams(new URLSearchParams(q), { defaultUniverse: "nifty" });
  if (!r.ok) throw new Error(r.errors.join(" | "));
  return r.params;
}

const snapshot = (input: SeriesInput, q: string) => computeChart(input, params(q)).data as SnapshotData;
const rolling = (input: SeriesInput, q: string) => computeChart(input, params(q)).data as RollingData;

function chartError(f: () => unknown): ChartError {
  try {
    f();
  } catch (e) {
    if (e instanceof ChartError) return e;
    throw e;
  }
  throw new Error("expected a ChartError");
}

describeNifty("snapshot payload", () => {
  const nifty = loadNifty();
  const data = snapshot(nifty, "asof=2024-06-28");

  test("has exactly the keys of docs/api.md § The answer, stocks in input order", () => {
    expect(Object.keys(data)).toEqual(["type", "asof_date", "interval", "metrics", "stocks", "graph", "graph_stats"]);
    expect(data.type).toBe("snapshot");
    expect(data.asof_date).toBe("2024-06-28T00:00:00+05:30");
    expect(data.stocks.map((s) => s.symbol)).toEqual(nifty.symbols);
    expect(Object.keys(data.stocks[0])).toEqual(["symbol", ...METRICS, "community"]);
    expect(Object.keys(data.graph)).toEqual([
      "asof_date",
      "nodes",
      "edges",
      "method",
      "edge_list",
      "communities",
      "n_communities",
      "modularity",
      "sector_agreement",
    ]);
  });

  test("the mst graph has n-1 edges, every node a community, ids 0..k-1 with the largest first", () => {
    const g = data.graph;
    expect(g.nodes).toBe(50);
    expect(g.edges).toBe(49);
    expect(g.edge_list).toHaveLength(49);
    const ids = Object.values(g.communities!);
    expect(ids).toHaveLength(50);
    expect(new Set(ids).size).toBe(g.n_communities!);
    const sizes = Array.from({ length: g.n_communities! }, (_, c) => ids.filter((x) => x === c).length);
    expect([...sizes].sort((a, b) => b - a)).toEqual(sizes);
    expect(g.modularity!).toBeGreaterThan(0.3);
    for (const s of data.stocks) expect(s.community).toBe(g.communities![s.symbol]);
  });

  test("every number is rounded to 6 decimals and weight = |corr|", () => {
    const six = (v: number) => expect(Math.round(v * 1e6) / 1e6).toBe(v);
    for (const s of data.stocks) for (const m of METRICS) six(s[m] as number);
    for (const e of data.graph.edge_list!) {
      six(e.weight);
      six(e.corr);
      expect(e.weight).toBe(Math.abs(e.corr));
    }
  });

  test("asof on a non-trading day resolves to the last bar on or before it", () => {
    expect(snapshot(nifty, "asof=2024-06-30&metrics=pagerank").asof_date).toBe("2024-06-28T00:00:00+05:30");
    // Every calendar day of a stretch, against a walk back from the last bar.
    for (let day = Date.UTC(2024, 0, 1); day <= Date.UTC(2024, 2, 31); day += 86_400_000) {
      const asof = new Date(day).toISOString().slice(0, 10);
      let t = nifty.labels.length - 1;
      while (nifty.labels[t].slice(0, 10) > asof) t--;
      expect(snapshot(nifty, `asof=${asof}&metrics=degree_strength&include_graph=false`).asof_date).toBe(nifty.labels[t]);
    }
  });

  test("include_graph=false: graph is only nodes, edges, method; stocks carry no community", () => {
    const d = snapshot(nifty, "asof=2024-06-28&include_graph=false&graph_method=knn");
    expect(d.graph).toEqual({ nodes: 50, edges: d.graph.edges, method: "knn" });
    expect(d.graph.edges).toBeGreaterThanOrEqual(100);
    expect(d.stocks.every((s) => !("community" in s))).toBe(true);
  });
});

describeNifty("sort", () => {
  test("descending, nulls last, ties in input order", () => {
    const input = loadNifty(["RELIANCE", "ETERNAL", "TCS", "INFY", "JIOFIN", "HDFCBANK", "ITC"]);
    const base = snapshot(input, "asof=2023-01-02&metrics=degree_strength,pagerank&graph_method=threshold&corr_threshold=0.3");
    const sorted = snapshot(
      input,
      "asof=2023-01-02&metrics=degree_strength,pagerank&graph_method=threshold&corr_threshold=0.3&sort=degree_strength",
    );
    expect([...sorted.stocks].sort((a, b) => a.symbol.localeCompare(b.symbol))).toEqual(
      [...base.stocks].sort((a, b) => a.symbol.localeCompare(b.symbol)),
    );
    const v = sorted.stocks.map((s) => s.degree_strength ?? null);
    expect(v.at(-1)).toBeNull(); // JIOFIN is not listed yet
    const firstNull = v.indexOf(null);
    expect(v.slice(firstNull).every((x) => x === null)).toBe(true);
    for (let k = 1; k < firstNull; k++) {
      expect(v[k]!).toBeLessThanOrEqual(v[k - 1]!);
      if (v[k] === v[k - 1]) {
        const order = base.stocks.map((s) => s.symbol);
        expect(order.indexOf(sorted.stocks[k].symbol)).toBeGreaterThan(order.indexOf(sorted.stocks[k - 1].symbol));
      }
    }
  });
});

describeNifty("rolling", () => {
  const nifty = loadNifty();
  const cases = [
    "graph_method=mst",
    "graph_method=knn&corr_method=spearman",
    "graph_method=threshold&corr_threshold=0.4",
    "graph_method=complete",
  ];
  for (const q of cases) {
    test(`equals each as-of computed as a snapshot (${q}), across the ETERNAL listing`, () => {
      const r = rolling(nifty, `${q}&asof=2021-09-15&lookback=20&periods=12&step=3`);
      expect(r.asof_dates).toHaveLength(12);
      r.asof_dates.forEach((date, p) => {
        const s = snapshot(nifty, `${q}&asof=${date.slice(0, 10)}&lookback=20`);
        expect(s.asof_date).toBe(date);
        s.stocks.forEach((stock, i) => {
          const point = r.stocks[i].points[p];
          expect(point.date).toBe(date);
          for (const m of METRICS) {
            if (stock[m] === null) expect(point[m]).toBeNull();
            else expect(Math.abs(point[m]! - stock[m]!)).toBeLessThanOrEqual(1.000001e-6);
          }
        });
        if (p === 11) {
          expect(r.latest_graph).toEqual(s.graph);
          expect(r.stocks.map((x) => x.community)).toEqual(s.stocks.map((x) => x.community!));
        }
      });
      const eternal = r.stocks.find((s) => s.symbol === "ETERNAL")!;
      expect(eternal.points[0].pagerank).toBeNull();
      expect(eternal.points[11].pagerank).not.toBeNull();
    });
  }

  test("payload keys, sort by the latest point, diagnostics per as-of", () => {
    const input = loadNifty(["RELIANCE", "JIOFIN", "TCS"]);
    const res = computeChart(input, params("asof=2023-09-01&lookback=5&periods=8&metrics=pagerank,degree_strength&sort=pagerank"));
    const r = res.data as RollingData;
    expect(Object.keys(r)).toEqual(["type", "asof_dates", "interval", "metrics", "stocks", "latest_graph", "graph_stats"]);
    expect(Object.keys(r.stocks[0])).toEqual(["symbol", "community", "points"]);
    expect(Object.keys(r.stocks[0].points[0])).toEqual(["date", "pagerank", "degree_strength", "community"]);
    const last = r.stocks.map((s) => s.points.at(-1)!.pagerank!);
    expect(last).toEqual([...last].sort((a, b) => b - a));
    const jioLabels = input.labels.filter((_l, k) => !Number.isNaN(input.closes[1][k]));
    const listed = input.labels.indexOf(jioLabels[0]);
    const expectDropped = r.asof_dates.filter((d) => input.labels.indexOf(d) - 5 < listed);
    expect(expectDropped.length).toBeGreaterThan(0);
    expect(res.diagnostics.dropped_insufficient_bars).toEqual(Object.fromEntries(expectDropped.map((d) => [d, ["JIOFIN"]])));
    expect(res.diagnostics.dropped_zero_variance).toEqual({});
    expect(res.diagnostics.first_asof).toBe(r.asof_dates[0]);
    expect(res.diagnostics.n_in_graph).toBe(3);
  });

  test("an as-of with fewer than 2 symbols has null metrics for everyone", () => {
    const input = loadNifty(["RELIANCE", "JIOFIN"]);
    const r = rolling(input, "asof=2023-09-05&lookback=5&periods=10&metrics=pagerank");
    const pr = r.stocks.find((s) => s.symbol === "RELIANCE")!.points.map((p) => p.pagerank);
    expect(pr[0]).toBeNull();
    expect(pr.at(-1)).toBe(0.5);
  });

  test("include_graph=false shape", () => {
    const r = rolling(nifty, "periods=3&include_graph=false&metrics=pagerank");
    expect(Object.keys(r.latest_graph)).toEqual(["nodes", "edges", "method"]);
    expect(r.stocks.every((s) => !("community" in s))).toBe(true);
  });
});

describeNifty("data the NIFTY-50 history cannot serve", () => {
  const nifty = loadNifty();

  test("asof before the first bar", () => {
    const e = chartError(() => computeChart(nifty, params("asof=2019-01-01")));
    expect(e.kind).toBe("out-of-range");
    expect(e.message).toBe("asof 2019-01-01 is before the first bar (2020-10-01) at interval 1d");
  });

  test("history too short says how many bars exist", () => {
    const have = nifty.labels.filter((l) => l.slice(0, 10) <= "2020-12-31").length;
    const e = chartError(() => computeChart(nifty, params("asof=2020-12-31&lookback=60&periods=5&step=2")));
    expect(e.kind).toBe("insufficient-history");
    expect(e.message).toBe(`lookback=60, periods=5, step=2 needs 69 bars up to 2020-12-31 but only ${have} exist at interval 1d`);
    // exactly enough history is fine
    const lookback = have - 1;
    expect(snapshot(nifty, `asof=2020-12-31&lookback=${lookback}&metrics=pagerank`).stocks).toHaveLength(50);
  });

  test("fewer than 2 usable symbols in a snapshot is no-usable-symbols, naming who was dropped", () => {
    const e = chartError(() => computeChart(loadNifty(["ETERNAL", "JIOFIN"]), params("asof=2023-01-02")));
    expect(e.kind).toBe("no-usable-symbols");
    expect(e.message).toBe(
      "only 1 of 2 symbols can be used up to 2023-01-02 (lookback 60 at interval 1d); at least 2 are needed; without a close > 0 at each of the 61 bars: JIOFIN",
    );
  });
});

describe("data the request cannot use", () => {
  test("constant prices are dropped for zero variance", () => {
    const labels = Array.from({ length: 6 }, (_, k) => `2024-01-0${k + 1}T00:00:00+05:30`);
    const input = seriesFromFixture(labels, {
      A: [10, 11, 10.5, 11.2, 11, 11.5],
      B: [20, 20.5, 20.1, 21, 21.4, 21.2],
      C: [5, 5, 5, 5, 5, 5],
      D: [null, null, 3, 3.1, 3.2, 3.1],
    });
    const res = computeChart(input, params("lookback=4"));
    expect(res.diagnostics.dropped_zero_variance).toEqual(["C"]);
    expect(res.diagnostics.dropped_insufficient_bars).toEqual(["D"]);
    const d = res.data as SnapshotData;
    expect(d.stocks.find((s) => s.symbol === "C")).toEqual({
      symbol: "C",
      ...Object.fromEntries(METRICS.map((m) => [m, null])),
      community: null,
    });
    expect(d.graph.edge_list).toHaveLength(1);
    expect(d.graph.communities).toEqual({ A: 0, B: 0 });
  });

  test("periods x symbols over the cap is too-large", () => {
    const sample = sampleSeriesInput(); // enough history for periods=250, so only the cap can refuse it
    const many: SeriesInput = {
      symbols: Array.from({ length: 201 }, (_, i) => `S${i}`),
      labels: sample.labels,
      closes: Array(201).fill(sample.closes[0]),
    };
    expect(chartError(() => computeChart(many, params("periods=250"))).kind).toBe("too-large");
  });
});
