import { expect, test } from "bun:test";
import { parseChartParams } from "../../src/http/params/params.ts";
import { DEFAULT_HEAVY_QUERY, dateOption, heavyQuery } from "./heavy.js";

const opts = {
  baseQuery: DEFAULT_HEAVY_QUERY,
  firstMs: dateOption("FIRST_ASOF", "2024-01-01"),
  lastMs: dateOption("LAST_ASOF", "2025-09-30"),
};

test("heavy queries are distinct for thousands of requests, and every one is a valid request", () => {
  const seen = new Set<string>();
  for (let n = 0; n < 3000; n++) {
    const q = heavyQuery(n, opts);
    expect(seen.has(q)).toBe(false);
    seen.add(q);
    const parsed = parseChartParams(new URLSearchParams(q), { defaultUniverse: "sample" });
    if (!parsed.ok) throw new Error(`${q}: ${parsed.errors.join("; ")}`);
  }
  expect(heavyQuery(0, opts)).toBe(`${DEFAULT_HEAVY_QUERY}&asof=2024-01-01`);
  expect(heavyQuery(638, opts)).toBe(`${DEFAULT_HEAVY_QUERY}&asof=2025-09-30`);
  expect(heavyQuery(639, opts)).toBe(`${DEFAULT_HEAVY_QUERY}&asof=2024-01-01&corr_threshold=0.500001`);
});

test("dates are checked: a bad FIRST_ASOF or LAST_ASOF is named, an empty range refused", () => {
  expect(() => dateOption("FIRST_ASOF", "2024-02-30")).toThrow("FIRST_ASOF must be a date YYYY-MM-DD, got '2024-02-30'");
  expect(() => dateOption("LAST_ASOF", "yesterday")).toThrow("LAST_ASOF");
  expect(() => heavyQuery(0, { ...opts, lastMs: opts.firstMs - 86400000 })).toThrow("the last as-of must not be before the first");
});
