/**
 * The whole pipeline (window → correlation → graph → metrics → communities → rounding)
 * against networkx 2.8.8 on the golden fixtures of bench/networkx/generate_fixtures.py.
 */
import { describe, expect, test } from "bun:test";
import { computeChart } from "./chart.ts";
import nifty from "../../test/fixtures/engine/nifty-golden.json";
import small from "../../test/fixtures/engine/small-golden.json";
import { describeNifty, loadNifty } from "../../test/support/nifty.ts";
import { seriesFromFixture } from "../../test/support/engine/pipeline.ts";
import { parseChartParams } from "../http/params/params.ts";
import type { ChartParams, CorrMethod, GraphMethod, Metric, SeriesInput, SnapshotData } from "./types.ts";
import { METRICS } from "./types.ts";

interface GoldenCase {
  id: string;
  input: {
    symbols: string[] | null;
    asof: string;
    lookback: number;
    graph_method: string;
    corr_method: string;
    knn_k: number;
    corr_threshold: number;
    labels?: string[];
    closes?: Record<string, (number | null)[]>;
  };
  expected: {
    asof_date: string;
    nodes: string[];
    dropped_insufficient_bars: string[];
    dropped_zero_variance: string[];
    edges: [string, string, number, number][];
    metrics: Record<Metric, Record<string, number | null>>;
    modularity_networkx: number | null;
  };
}

const TOL = 1e-6 + 1e-12;
const parsedDefaults = parseChartParams(new URLSearchParams(""), { defaultUniverse: "fixture" });
if (!parsedDefaults.ok) throw new Error("defaults must parse");
const defaults: ChartParams = parsedDefaults.params;

function paramsOf(c: GoldenCase): ChartParams {
  return {
    ...defaults,
    universe: c.input.symbols ? null : "fixture",
    symbols: c.input.symbols,
    asof: c.input.asof,
    lookback: c.input.lookback,
    graph_method: c.input.graph_method as GraphMethod,
    corr_method: c.input.corr_method as CorrMethod,
    knn_k: c.input.knn_k,
    corr_threshold: c.input.corr_threshold,
  };
}

function near(actual: number | null | undefined, expected: number | null, what: string): void {
  if (expected === null) {
    expect(actual ?? null, what).toBeNull();
    return;
  }
  expect(typeof actual, what).toBe("number");
  const diff = Math.abs((actual as number) - expected);
  if (diff > TOL) throw new Error(`${what}: got ${actual}, networkx ${expected} (diff ${diff})`);
}

function checkCase(c: GoldenCase, input: SeriesInput): void {
  const res = computeChart(input, paramsOf(c));
  const data = res.data as SnapshotData;
  const e = c.expected;
  expect(data.asof_date.slice(0, 10)).toBe(e.asof_date);
  expect(res.diagnostics.dropped_insufficient_bars).toEqual(e.dropped_insufficient_bars);
  expect(res.diagnostics.dropped_zero_variance).toEqual(e.dropped_zero_variance);
  expect(res.diagnostics.n_in_graph).toBe(e.nodes.length);
  expect(data.graph.nodes).toBe(e.nodes.length);
  expect(Object.keys(data.graph.communities!)).toEqual(e.nodes);
  expect(data.graph.edge_list!.map((x) => [x.source, x.target])).toEqual(e.edges.map((x) => [x[0], x[1]]));
  data.graph.edge_list!.forEach((x, k) => {
    near(x.weight, e.edges[k][2], `${c.id} weight ${x.source}-${x.target}`);
    near(x.corr, e.edges[k][3], `${c.id} corr ${x.source}-${x.target}`);
  });
  const bySymbol = new Map(data.stocks.map((s) => [s.symbol, s]));
  for (const m of METRICS) {
    for (const symbol of input.symbols) {
      const expected = e.nodes.includes(symbol) ? e.metrics[m][symbol] : null;
      near(bySymbol.get(symbol)![m], expected, `${c.id} ${m} ${symbol}`);
    }
  }
  if (e.modularity_networkx === null) expect(data.graph.modularity).toBeNull();
  else expect(data.graph.modularity!).toBeGreaterThanOrEqual(e.modularity_networkx - 0.01);
}

describeNifty("NIFTY-50 golden cases (networkx 2.8.8)", () => {
  const all = loadNifty();
  const cases = nifty.cases as unknown as GoldenCase[];
  test("the fixture file has cases", () => expect(cases.length).toBeGreaterThan(20));
  for (const c of cases) {
    test(c.id, () => checkCase(c, c.input.symbols ? loadNifty(c.input.symbols) : all));
  }
});

describe("hand-made golden cases (networkx 2.8.8)", () => {
  const cases = small.cases as unknown as GoldenCase[];
  test("the fixture file has cases", () => expect(cases.length).toBeGreaterThan(5));
  for (const c of cases) {
    test(c.id, () => checkCase(c, seriesFromFixture(c.input.labels!, c.input.closes!, c.input.symbols!)));
  }
});
