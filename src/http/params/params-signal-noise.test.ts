/** The signal-or-noise parameters: denoise, detone, spectrum, include_corr, bootstrap and seed. */
import { describe, expect, test } from "bun:test";
import type { ChartParams } from "../../engine/types.ts";
import { parseChartParams } from "./params.ts";

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
  if (r.ok) throw new Error(`expected ${q} to fail`);
  return r.errors;
}

describe("signal or noise parameters", () => {
  test("defaults: nothing filtered, no spectrum, matrix or bootstrap, seed 0", () => {
    expect(ok("")).toMatchObject({ denoise: "none", detone: 0, spectrum: false, include_corr: false, bootstrap: null, seed: 0 });
  });

  test("denoise and detone: mp, 0 to 5", () => {
    expect(ok("denoise=mp&detone=5")).toMatchObject({ denoise: "mp", detone: 5 });
    expect(errors("denoise=rmt")).toEqual(["denoise must be one of none, mp, got 'rmt'"]);
    for (const bad of ["6", "-1", "1.5", "x"])
      expect(errors(`detone=${bad}`)).toEqual([`detone must be an integer from 0 to 5, got '${bad}'`]);
  });

  test("spectrum and include_corr are booleans; include_corr needs a graph", () => {
    expect(ok("spectrum=1&include_corr=true")).toMatchObject({ spectrum: true, include_corr: true });
    expect(errors("spectrum=yes")).toEqual(["spectrum must be one of true, false, 1, 0, got 'yes'"]);
    expect(errors("include_corr=true&include_graph=false")).toEqual([
      "include_corr=true returns the matrix each graph was built from, beside the graph, and include_graph=false returns no graph; use include_graph=true (the latest as-of) or all (every as-of), or drop include_corr",
    ]);
  });

  test("bootstrap 1 to 1000; seed 0 to 2^32 - 1, only with bootstrap", () => {
    expect(ok("bootstrap=1&seed=4294967295")).toMatchObject({ bootstrap: 1, seed: 4294967295 });
    expect(ok("bootstrap=1000").bootstrap).toBe(1000);
    for (const bad of ["0", "1001", "2.5"]) {
      expect(errors(`bootstrap=${bad}`)).toEqual([`bootstrap must be an integer from 1 to 1000, got '${bad}'`]);
    }
    for (const bad of ["4294967296", "-1", "1e3", "12345678901"]) {
      expect(errors(`bootstrap=10&seed=${bad}`)).toEqual([`seed must be an integer from 0 to 4294967295 (2^32 - 1), got '${bad}'`]);
    }
    expect(errors("seed=3")).toEqual([
      "seed applies only to bootstrap, got seed='3' without bootstrap; add bootstrap=B (1 to 1000) or drop seed",
    ]);
  });

  test("bootstrap needs a filtered graph; the filters need a correlation matrix", () => {
    expect(errors("bootstrap=10&graph_method=complete")).toEqual([
      "bootstrap measures how often each edge of a filtered graph survives resampling, and with graph_method=complete every replicate has every edge (each reliability would be 1 by construction); choose graph_method=mst, knn, threshold, tmfg or pmfg",
    ]);
    for (const m of ["mst", "knn", "threshold", "tmfg", "pmfg"] as const) expect(ok(`bootstrap=10&graph_method=${m}`).graph_method).toBe(m);
    expect(errors("corr_method=distance&detone=1")[0]).toStartWith("denoise and detone filter the eigenvalues of a correlation matrix");
    expect(ok("corr_method=kendall&denoise=mp&spectrum=true")).toMatchObject({ corr_method: "kendall", denoise: "mp" });
    expect(ok("corr_method=distance&spectrum=true").spectrum).toBe(true);
  });
});
