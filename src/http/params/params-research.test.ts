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
    expect(ok("graph_method=tmfg&format=csv")).toMatchObject({ graph_method: "tmfg", format: "csv" });
    expect(ok("format=ndjson").format).toBe("ndjson");
    expect(errors("format=xlsx")).toEqual(["format must be one of json, csv, ndjson, got 'xlsx'"]);
  });
});
