/** The parameters of the research additions (issue 15): ranges, EWMA, shrinkage, market mode, format. */
import { describe, expect, test } from "bun:test";
import { parseChartParams } from "./params.ts";
import type { ChartParams } from "../../engine/types.ts";

function parse(q: string) {
  return parseChartParams(new URLSearchParams(q), { defaultUniverse: "sample" });
}
function ok(q: string): ChartParams {
  const r = parse(q);
  if (!r.ok) throw new Error(r.errors.join("; "));
  return r.params;
}
/** The response format: the HTTP request's, beside the engine's parameters. */
function format(q: string): string {
  const r = parse(q);
  if (!r.ok) throw new Error(r.errors.join("; "));
  return r.format;
}
function errors(q: string): string[] {
  const r = parse(q);
  if (r.ok) throw new Error(`expected errors for ${q}`);
  return r.errors;
}

describe("start and end", () => {
  test("both dates are kept", () => {
    expect(ok("start=2024-01-01&end=2024-06-28&step=5")).toMatchObject({ start: "2024-01-01", end: "2024-06-28", step: 5 });
  });
  test("one without the other", () => {
    expect(errors("start=2024-01-01")).toEqual(["start needs end too: give both start and end (YYYY-MM-DD), or neither and use periods"]);
    expect(errors("end=2024-01-01")).toEqual(["end needs start too: give both start and end (YYYY-MM-DD), or neither and use periods"]);
  });
  test("not with periods or asof", () => {
    expect(errors("start=2024-01-01&end=2024-02-01&periods=3&asof=2024-02-01")).toEqual([
      "give either start/end or periods, not both (got start='2024-01-01', end='2024-02-01' and periods='3')",
      "give either start/end or asof, not both (got start='2024-01-01', end='2024-02-01' and asof='2024-02-01')",
    ]);
  });
  test("in order, and real dates", () => {
    expect(errors("start=2024-03-01&end=2024-02-01")).toEqual([
      "start must be on or before end, got start='2024-03-01' and end='2024-02-01'",
    ]);
    expect(errors("start=2024-02-30&end=2024-03-01")).toEqual(["start must be a calendar date YYYY-MM-DD, got '2024-02-30'"]);
  });
});

describe("correlation options", () => {
  test("ewma with a half-life", () => {
    expect(ok("corr_method=ewma&halflife=10.5")).toMatchObject({ corr_method: "ewma", halflife: 10.5 });
    expect(ok("corr_method=ewma").halflife).toBe(20);
    expect(errors("corr_method=ewma&halflife=0.5")).toEqual(["halflife must be a number from 1 to 1000, got '0.5'"]);
    expect(errors("corr_method=ewma&halflife=1001")).toEqual(["halflife must be a number from 1 to 1000, got '1001'"]);
    expect(errors("halflife=10")).toEqual([
      "halflife applies only to corr_method=ewma, got corr_method='pearson'; add corr_method=ewma or drop halflife",
    ]);
  });
  test("shrinkage", () => {
    expect(ok("shrinkage=ledoit_wolf").shrinkage).toBe("ledoit_wolf");
    expect(errors("shrinkage=oas")).toEqual(["shrinkage must be one of none, ledoit_wolf, got 'oas'"]);
    expect(errors("shrinkage=ledoit_wolf&corr_method=spearman")).toEqual([
      "shrinkage=ledoit_wolf works on the sample covariance, so it needs corr_method=pearson, got corr_method='spearman'; use corr_method=pearson or shrinkage=none",
    ]);
  });
  test("market_mode", () => {
    expect(ok("market_mode=remove").market_mode).toBe("remove");
    expect(errors("market_mode=pca")).toEqual(["market_mode must be one of keep, remove, got 'pca'"]);
  });
});

describe("graph and output", () => {
  test("tmfg and format", () => {
    expect(ok("graph_method=tmfg&format=csv")).toMatchObject({ graph_method: "tmfg" });
    expect(format("graph_method=tmfg&format=csv")).toBe("csv");
    expect(format("format=ndjson")).toBe("ndjson");
    expect(ok("format=ndjson")).not.toHaveProperty("format");
    expect(errors("format=xlsx")).toEqual(["format must be one of json, csv, ndjson, got 'xlsx'"]);
  });
});

/** Issue 26: pmfg, kendall, distance correlation, hierarchy, clusters and portfolio weights. */
describe("issue 26 options", () => {
  test("new graph and correlation methods", () => {
    expect(ok("graph_method=pmfg&corr_method=kendall")).toMatchObject({ graph_method: "pmfg", corr_method: "kendall" });
    expect(ok("corr_method=distance&market_mode=remove")).toMatchObject({ corr_method: "distance", market_mode: "remove" });
    expect(errors("corr_method=kendall&shrinkage=ledoit_wolf")).toEqual([
      "shrinkage=ledoit_wolf works on the sample covariance, so it needs corr_method=pearson, got corr_method='kendall'; use corr_method=pearson or shrinkage=none",
    ]);
    expect(errors("corr_method=distance&halflife=5")).toEqual([
      "halflife applies only to corr_method=ewma, got corr_method='distance'; add corr_method=ewma or drop halflife",
    ]);
  });

  test("hierarchy: every linkage, both distances, defaults", () => {
    for (const h of ["single", "average", "complete", "ward"] as const) expect(ok(`hierarchy=${h}`).hierarchy).toBe(h);
    expect(ok("")).toMatchObject({ hierarchy: "none", hierarchy_distance: "unsigned", clusters: null, weights: "none" });
    expect(ok("hierarchy=ward&hierarchy_distance=signed")).toMatchObject({ hierarchy: "ward", hierarchy_distance: "signed" });
    expect(errors("hierarchy=centroid")).toEqual(["hierarchy must be one of none, single, average, complete, ward, got 'centroid'"]);
    expect(errors("hierarchy=single&hierarchy_distance=abs")).toEqual(["hierarchy_distance must be one of unsigned, signed, got 'abs'"]);
  });

  test("clusters: 1 to 500, an integer, only with a tree", () => {
    expect(ok("hierarchy=average&clusters=1").clusters).toBe(1);
    expect(ok("hierarchy=average&clusters=500").clusters).toBe(500);
    for (const bad of ["0", "501", "2.5", "-1", "k"]) {
      expect(errors(`hierarchy=average&clusters=${bad}`)).toEqual([`clusters must be an integer from 1 to 500, got '${bad}'`]);
    }
    expect(errors("clusters=4")).toEqual([
      "clusters applies only to a hierarchical clustering, got clusters='4' without hierarchy; add hierarchy=single, average, complete or ward (or weights=hrp), or drop clusters",
    ]);
    expect(errors("hierarchy=none&hierarchy_distance=signed")).toEqual([
      "hierarchy_distance applies only to a hierarchical clustering, got hierarchy_distance='signed' without hierarchy; add hierarchy=single, average, complete or ward (or weights=hrp), or drop hierarchy_distance",
    ]);
    // weights=hrp brings its own tree.
    expect(ok("weights=hrp&clusters=3&hierarchy_distance=signed")).toMatchObject({ hierarchy: "single", clusters: 3 });
  });

  test("weights: hrp defaults to single linkage; equal and inverse_variance need no tree", () => {
    expect(ok("weights=hrp")).toMatchObject({ weights: "hrp", hierarchy: "single" });
    expect(ok("weights=hrp&hierarchy=ward")).toMatchObject({ weights: "hrp", hierarchy: "ward" });
    expect(ok("weights=equal")).toMatchObject({ weights: "equal", hierarchy: "none" });
    expect(ok("weights=inverse_variance&periods=5")).toMatchObject({ weights: "inverse_variance", hierarchy: "none" });
    expect(errors("weights=minvar")).toEqual(["weights must be one of none, hrp, equal, inverse_variance, got 'minvar'"]);
    expect(errors("weights=hrp&hierarchy=none")).toEqual([
      "weights=hrp allocates down a hierarchical clustering tree, so it needs a linkage, got hierarchy='none'; give hierarchy=single, average, complete or ward, or leave hierarchy out (single is used)",
    ]);
  });

  test("a signed distance needs a signed correlation", () => {
    expect(ok("hierarchy=single&hierarchy_distance=signed&corr_method=kendall").hierarchy_distance).toBe("signed");
    expect(ok("hierarchy=single&corr_method=distance").corr_method).toBe("distance");
    const want =
      "hierarchy_distance=signed reads the sign of the correlation, and corr_method=distance has none (distance correlation is in [0, 1], so both distances are the same); drop hierarchy_distance, or choose corr_method=pearson, spearman, ewma or kendall";
    expect(errors("hierarchy=single&hierarchy_distance=signed&corr_method=distance")).toEqual([want]);
    expect(errors("weights=hrp&hierarchy_distance=signed&corr_method=distance")).toEqual([want]);
  });

  test("the tree itself is JSON only: a tidy export needs clusters or weights=hrp to carry any of it", () => {
    expect(errors("hierarchy=ward&format=csv")).toEqual([
      "the hierarchy's linkage matrix and leaf order are in format=json only, and format='csv' rows would carry nothing of it; use format=json, or add clusters=k for cluster rows (or weights=hrp for weight rows)",
    ]);
    expect(format("hierarchy=ward&clusters=5&format=csv")).toBe("csv");
    expect(format("weights=hrp&format=ndjson")).toBe("ndjson");
    expect(format("weights=equal&format=csv")).toBe("csv");
  });

  test("every problem at once", () => {
    expect(errors("weights=hrp&hierarchy=none&clusters=0&corr_method=kendall&shrinkage=ledoit_wolf")).toHaveLength(3);
  });
});
