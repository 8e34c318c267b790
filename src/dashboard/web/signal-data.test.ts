import { describe, expect, test } from "bun:test";
import type { GraphData, RollingData, SnapshotData } from "./network-data.ts";
import { toModel } from "./network-data.ts";
import { bandOf, bandsOf, spectraOf } from "./signal-data.ts";

const spectrum = (top: number) => ({
  eigenvalues: [top, 2 - top],
  lambda_plus: 1.5,
  n_above: top > 1.5 ? 1 : 0,
  absorption_ratio: top / 2,
});
const graph = (asof: string, extra: Partial<GraphData> = {}): GraphData => ({
  asof_date: asof,
  nodes: 2,
  edges: 1,
  method: "mst",
  ...extra,
});
const D1 = "2025-09-29T00:00:00+05:30";
const D2 = "2025-09-30T00:00:00+05:30";

function rolling(
  extra: Partial<RollingData>,
  points = [
    { date: D1, pagerank: 0.5 },
    { date: D2, pagerank: 0.5 },
  ],
): RollingData {
  return {
    type: "rolling",
    asof_dates: [D1, D2],
    metrics: ["pagerank"],
    stocks: ["A", "B"].map((symbol) => ({ symbol, points })),
    latest_graph: graph(D2, { spectrum: spectrum(1.9) }),
    ...extra,
  };
}

describe("spectra and bands of an answer", () => {
  test("a snapshot's one spectrum at its as-of; none without spectrum=true", () => {
    const snap: SnapshotData = { type: "snapshot", asof_date: D2, metrics: [], stocks: [], graph: graph(D2, { spectrum: spectrum(1.8) }) };
    expect(spectraOf(snap)).toEqual([{ asof: D2, spectrum: spectrum(1.8) }]);
    expect(spectraOf({ ...snap, graph: graph(D2) })).toEqual([]);
    expect(toModel(snap).spectra).toEqual([{ asof: D2, spectrum: spectrum(1.8) }]);
  });

  test("a rolling answer's spectrum per as-of with include_graph=all, else its latest graph's", () => {
    expect(spectraOf(rolling({}))).toEqual([{ asof: D2, spectrum: spectrum(1.9) }]);
    const all = rolling({ graphs: [graph(D1, { spectrum: spectrum(1.2) }), graph(D2, { spectrum: spectrum(1.9) })] });
    expect(spectraOf(all).map((s) => [s.asof, s.spectrum.n_above])).toEqual([
      [D1, 0],
      [D2, 1],
    ]);
  });

  test("bands only when the points carry percentiles; null where a point has none", () => {
    expect(bandsOf(rolling({}))).toBeNull();
    const points = [
      { date: D1, pagerank: 0.5, pagerank_p05: null, pagerank_p95: null },
      { date: D2, pagerank: 0.5, pagerank_p05: 0.4, pagerank_p95: 0.7 },
    ];
    const bands = bandsOf(rolling({}, points))!;
    expect(bands.A).toEqual([
      { p05: { pagerank: null }, p95: { pagerank: null } },
      { p05: { pagerank: 0.4 }, p95: { pagerank: 0.7 } },
    ]);
    expect(toModel(rolling({}, points)).rolling?.bands).toEqual(bands);
    // The metric's own value is not mistaken for its band.
    expect(toModel(rolling({}, points)).rolling?.series.A?.[1]).toEqual({ pagerank: 0.5 });
    // Each stock's band at the latest as-of, for the network's tooltips.
    expect(toModel(rolling({}, points)).stocks[0]?.band).toEqual({ p05: { pagerank: 0.4 }, p95: { pagerank: 0.7 } });
  });

  test("a snapshot's stocks carry their band; without bootstrap none", () => {
    const stock = { symbol: "A", pagerank: 0.5, pagerank_p05: 0.3, pagerank_p95: 0.6 };
    const snap: SnapshotData = { type: "snapshot", asof_date: D2, metrics: ["pagerank"], stocks: [stock], graph: graph(D2) };
    expect(toModel(snap).stocks[0]?.band).toEqual({ p05: { pagerank: 0.3 }, p95: { pagerank: 0.6 } });
    expect(bandOf({ symbol: "A", pagerank: 0.5 }, ["pagerank"])).toBeNull();
  });
});
