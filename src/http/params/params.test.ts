import { describe, expect, test } from "bun:test";
import { MAX_POINTS, PARAM_DOCS, PARAM_NAMES, parseChartParams } from "./params.ts";
import { METRICS } from "../../engine/types.ts";

const parse = (q: string) => parseChartParams(new URLSearchParams(q), { defaultUniverse: "sample" });

function ok(q: string) {
  const r = parse(q);
  if (!r.ok) throw new Error(`expected ${q} to parse, got ${r.errors.join(" | ")}`);
  return r.params;
}

function errors(q: string): string[] {
  const r = parse(q);
  if (r.ok) throw new Error(`expected ${q} to fail`);
  return r.errors;
}

describe("defaults", () => {
  test("an empty query gives every default", () => {
    expect(ok("")).toEqual({
      universe: "sample",
      symbols: null,
      interval: "1d",
      lookback: 60,
      periods: 1,
      step: 1,
      asof: null,
      start: null,
      end: null,
      metrics: [...METRICS],
      graph_method: "mst",
      knn_k: 4,
      corr_threshold: 0.5,
      corr_method: "pearson",
      halflife: 20,
      shrinkage: "none",
      market_mode: "keep",
      hierarchy: "none",
      hierarchy_distance: "unsigned",
      clusters: null,
      weights: "none",
      denoise: "none",
      detone: 0,
      spectrum: false,
      include_corr: false,
      bootstrap: null,
      seed: 0,
      include_graph: true,
      sort: null,
    });
    // The format is the HTTP layer's, not an engine parameter.
    expect(parse("")).toMatchObject({ ok: true, format: "json" });
  });

  test("the configured default universe is used", () => {
    const r = parseChartParams(new URLSearchParams(""), { defaultUniverse: "nifty50" });
    expect(r.ok && r.params.universe).toBe("nifty50");
  });

  test("symbols replace the universe, which becomes null", () => {
    const p = ok("symbols=INFY,TCS");
    expect(p.universe).toBeNull();
    expect(p.symbols).toEqual(["INFY", "TCS"]);
  });

  test("every parameter is documented", () => {
    expect(PARAM_DOCS.map((d) => d.name)).toEqual(PARAM_NAMES);
  });
});

describe("bounds at the edges", () => {
  const cases: [string, string, number, number][] = [
    ["lookback", "lookback must be an integer from 2 to 1000", 2, 1000],
    ["periods", "periods must be an integer from 1 to 250", 1, 250],
    ["step", "step must be an integer from 1 to 250", 1, 250],
    ["knn_k", "knn_k must be an integer from 1 to 50", 1, 50],
  ];
  for (const [name, message, min, max] of cases) {
    test(`${name} accepts ${min} and ${max}, rejects ${min - 1} and ${max + 1}`, () => {
      expect(ok(`${name}=${min}`)[name as "lookback"]).toBe(min);
      expect(ok(`${name}=${max}`)[name as "lookback"]).toBe(max);
      expect(errors(`${name}=${min - 1}`)).toEqual([`${message}, got '${min - 1}'`]);
      expect(errors(`${name}=${max + 1}`)).toEqual([`${message}, got '${max + 1}'`]);
      expect(errors(`${name}=2.5`)).toEqual([`${message}, got '2.5'`]);
      expect(errors(`${name}=`)).toEqual([`${message}, got ''`]);
    });
  }

  test("the example message of docs/api.md § The envelope", () => {
    expect(errors("lookback=5000")).toEqual(["lookback must be an integer from 2 to 1000, got '5000'"]);
  });

  test("corr_threshold takes 0, 1 and decimals, not outside or text", () => {
    expect(ok("corr_threshold=0").corr_threshold).toBe(0);
    expect(ok("corr_threshold=1").corr_threshold).toBe(1);
    expect(ok("corr_threshold=.35").corr_threshold).toBe(0.35);
    for (const bad of ["1.01", "-0.1", "abc", "", "NaN", "0x1"]) {
      expect(errors(`corr_threshold=${bad}`)).toEqual([`corr_threshold must be a number from 0 to 1, got '${bad}'`]);
    }
  });

  test("symbols: 2 to 500", () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => `S${i}`).join(",");
    expect(ok(`symbols=${many(500)}`).symbols).toHaveLength(500);
    expect(errors(`symbols=${many(501)}`)[0]).toStartWith("symbols must list 2 to 500 symbols, got 501 in 'S0,S1,");
    expect(errors("symbols=INFY")).toEqual(["symbols must list 2 to 500 symbols, got 1 in 'INFY'"]);
  });
});

describe("values", () => {
  test("M&M and BAJAJ-AUTO are symbols; case and order are kept; spaces around entries are trimmed", () => {
    expect(ok("symbols=M%26M,%20BAJAJ-AUTO,infy").symbols).toEqual(["M&M", "BAJAJ-AUTO", "infy"]);
  });

  test("an unencoded & in M&M gets a hint", () => {
    expect(errors("symbols=M&M,TCS")).toEqual([
      `unknown parameter 'M,TCS'; if it is part of a symbol such as M&M, encode & as %26; allowed parameters: ${PARAM_NAMES.join(", ")}`,
      "symbols must list 2 to 500 symbols, got 1 in 'M'",
    ]);
    expect(errors("symbols=TCS,M&M")[0]).toContain("encode & as %26");
  });

  test("symbol errors: bad characters, too long, empty entry, duplicate", () => {
    expect(errors(`symbols=A,B%20C,${"X".repeat(33)},,A`)).toEqual([
      "symbols entry 'B C' is not a valid symbol: 1 to 32 characters of A-Z a-z 0-9 & . _ - (encode & as %26)",
      `symbols entry '${"X".repeat(33)}' is not a valid symbol: 1 to 32 characters of A-Z a-z 0-9 & . _ - (encode & as %26)`,
      `symbols has an empty entry at position 4 in 'A,B C,${"X".repeat(33)},,A'`,
      "symbols lists 'A' more than once",
    ]);
  });

  test("metrics keep order and drop duplicates; unknown ones are named", () => {
    expect(ok("metrics=pagerank,degree_strength,pagerank").metrics).toEqual(["pagerank", "degree_strength"]);
    expect(errors("metrics=pagerank,foo")).toEqual([
      `metrics entry 'foo' is not a metric; allowed: ${METRICS.join(", ")} (comma-separated)`,
    ]);
    expect(errors("metrics=")).toHaveLength(1);
  });

  test("enumerations", () => {
    expect(ok("interval=1w&graph_method=knn&corr_method=spearman")).toMatchObject({
      interval: "1w",
      graph_method: "knn",
      corr_method: "spearman",
    });
    expect(errors("interval=2d&graph_method=tree&corr_method=tau")).toEqual([
      "interval must be one of 1m, 5m, 15m, 30m, 1h, 1d, 1w, got '2d'",
      "graph_method must be one of mst, knn, threshold, complete, tmfg, pmfg, got 'tree'",
      "corr_method must be one of pearson, spearman, ewma, kendall, distance, got 'tau'",
    ]);
  });

  test("include_graph takes true/false/1/0/all only", () => {
    expect(ok("include_graph=all").include_graph).toBe("all");
    expect(ok("include_graph=0").include_graph).toBe(false);
    expect(ok("include_graph=false").include_graph).toBe(false);
    expect(ok("include_graph=1").include_graph).toBe(true);
    expect(ok("include_graph=true").include_graph).toBe(true);
    expect(errors("include_graph=yes")).toEqual(["include_graph must be one of true, false, 1, 0, all, got 'yes'"]);
  });

  test("asof must be a real calendar date", () => {
    expect(ok("asof=2024-02-29").asof).toBe("2024-02-29");
    for (const bad of ["2023-02-29", "2024-13-01", "20240101", "2024-1-01", ""]) {
      expect(errors(`asof=${bad}`)).toEqual([`asof must be a calendar date YYYY-MM-DD, got '${bad}'`]);
    }
  });

  test("universe names", () => {
    expect(ok("universe=nifty_50.v2").universe).toBe("nifty_50.v2");
    expect(errors("universe=a/b")).toEqual(["universe must be a name of 1 to 64 characters of A-Z a-z 0-9 . _ -, got 'a/b'"]);
  });

  test("long values are cut short in messages", () => {
    const [msg] = errors(`lookback=${"9".repeat(100)}`);
    expect(msg).toBe(`lookback must be an integer from 2 to 1000, got '${"9".repeat(64)}…'`);
  });
});

describe("several parameters", () => {
  test("unknown and repeated parameters, each reported once", () => {
    expect(errors("foo=1&foo=2&lookback=10&lookback=20&Lookback=5")).toEqual([
      `unknown parameter 'foo'; allowed parameters: ${PARAM_NAMES.join(", ")}`,
      "unknown parameter 'Lookback'; did you mean 'lookback'? (names are lower-case)",
      "lookback is given 2 times; give it once",
    ]);
    expect(errors("symbols=A,B&symbols=C,D")).toEqual([
      "symbols is given 2 times; give it once as one comma-separated list, e.g. symbols=a,b",
    ]);
  });

  test("universe and symbols together", () => {
    expect(errors("universe=sample&symbols=A,B")).toEqual([
      "give either universe or symbols, not both (got universe='sample' and symbols)",
    ]);
  });

  test("sort must be a requested metric", () => {
    expect(ok("sort=pagerank").sort).toBe("pagerank");
    expect(ok("metrics=pagerank&sort=pagerank").sort).toBe("pagerank");
    expect(errors("metrics=degree_strength,closeness_centrality&sort=pagerank")).toEqual([
      "sort must be one of the requested metrics (degree_strength, closeness_centrality), got 'pagerank'; add it to metrics or sort by one of those",
    ]);
    expect(errors("sort=size")[0]).toStartWith("sort must be a metric name: degree_strength,");
  });

  test(`periods x symbols is capped at ${MAX_POINTS}`, () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => `S${i}`).join(",");
    expect(ok(`symbols=${list(200)}&periods=250`).periods).toBe(250);
    expect(errors(`symbols=${list(201)}&periods=250`)).toEqual([
      "periods x symbols must be at most 50000, got 250 x 201 = 50250; request fewer periods or symbols",
    ]);
  });

  test("every problem is reported, not only the first", () => {
    expect(errors("lookback=1&periods=0&step=x&knn_k=51&interval=1y&bogus=")).toHaveLength(6);
  });
});
