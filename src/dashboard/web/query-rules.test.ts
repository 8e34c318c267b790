import { describe, expect, test } from "bun:test";
import { parseChartParams } from "../../http/params/params.ts";
import { MAX_POINTS, SYMBOL_COUNT } from "../../http/params/params-fields.ts";
import { SYMBOL_PATTERN } from "../../market/symbols.ts";
import { queryProblems } from "./query-rules.ts";

const LIMITS = { symbols: { ...SYMBOL_COUNT, entry: SYMBOL_PATTERN }, maxPoints: MAX_POINTS };
const many = (n: number) => Array.from({ length: n }, (_, i) => `S${i}`).join(",");

// [case, the form's parameters, the field the rules mark (null: none)]
const CASES: [string, Record<string, string>, string | null][] = [
  [
    "the form's defaults",
    { lookback: "60", graph_method: "mst", corr_method: "pearson", shrinkage: "none", market_mode: "keep", periods: "10" },
    null,
  ],
  ["Ledoit–Wolf with Pearson", { corr_method: "pearson", shrinkage: "ledoit_wolf" }, null],
  ["Ledoit–Wolf with Spearman", { corr_method: "spearman", shrinkage: "ledoit_wolf" }, "shrinkage"],
  ["Ledoit–Wolf with distance correlation", { corr_method: "distance", shrinkage: "ledoit_wolf" }, "shrinkage"],
  ["clusters with a hierarchy", { hierarchy: "ward", clusters: "4" }, null],
  ["clusters with HRP and no hierarchy", { weights: "hrp", clusters: "4" }, null],
  ["clusters alone", { clusters: "4" }, "clusters"],
  ["clusters with equal weights only", { weights: "equal", clusters: "4" }, "clusters"],
  ["two symbols", { symbols: "ALPHABANK,BETABANK" }, null],
  ["one symbol", { symbols: "ALPHABANK" }, "symbols"],
  ["a symbol twice", { symbols: "ALPHABANK,BETABANK,ALPHABANK" }, "symbols"],
  ["a symbol with a slash", { symbols: "ALPHA/BANK,BETABANK" }, "symbols"],
  ["M&M is a symbol", { symbols: "M&M,BAJAJ-AUTO" }, null],
  [`${SYMBOL_COUNT.max + 1} symbols`, { symbols: many(SYMBOL_COUNT.max + 1) }, "symbols"],
  ["250 periods of 200 symbols", { symbols: many(200), periods: "250" }, null],
  ["250 periods of 201 symbols", { symbols: many(201), periods: "250" }, "periods"],
  ["denoise and detone with Pearson", { denoise: "mp", detone: "2" }, null],
  ["denoise with distance correlation", { corr_method: "distance", denoise: "mp" }, "denoise"],
  ["detone with distance correlation", { corr_method: "distance", detone: "1" }, "detone"],
  ["detone 0 with distance correlation", { corr_method: "distance", detone: "0", spectrum: "true" }, null],
  ["bootstrap with the spanning tree", { bootstrap: "20", seed: "7" }, null],
  ["bootstrap with the complete graph", { bootstrap: "20", graph_method: "complete" }, "bootstrap"],
];

describe("the rules between the form's fields refuse what the server refuses (#42 item 7)", () => {
  for (const [what, params, field] of CASES) {
    test(what, () => {
      const problems = queryProblems(params, LIMITS);
      expect(problems.map((p) => p.field)).toEqual(field ? [field] : []);
      const server = parseChartParams(new URLSearchParams(params), { defaultUniverse: "sample" });
      expect(server.ok).toBe(field === null);
    });
  }
});
