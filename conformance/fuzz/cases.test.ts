import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { caseArbitrary, describeCase, expectationOf, PROBE_AUTHS, queryString, requestPath } from "./cases.ts";
import { fixtureDocument } from "./fixture.ts";
import { operationSeed } from "./property.ts";

const chart = fixtureDocument().operations.find((o) => o.id === "getChart")!;
const arb = caseArbitrary(chart, ["valid"], { twice: true });

describe("fuzz cases", () => {
  test("the same seed gives the same cases; another seed, others", () => {
    const a = fc.sample(arb, { seed: 7, numRuns: 50 }).map(requestPath.bind(null, chart));
    const b = fc.sample(arb, { seed: 7, numRuns: 50 }).map(requestPath.bind(null, chart));
    const c = fc.sample(arb, { seed: 8, numRuns: 50 }).map(requestPath.bind(null, chart));
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    // Per-operation seeds are stable and distinct per check and operation.
    expect(operationSeed(7, "fuzz.live", "getChart")).toBe(operationSeed(7, "fuzz.live", "getChart"));
    expect(operationSeed(7, "fuzz.live", "getChart")).not.toBe(operationSeed(7, "fuzz.credentials", "getChart"));
  });

  test("cases combine valid values with every kind of fault, and some are sent twice", () => {
    const cases = fc.sample(arb, { seed: 1, numRuns: 400 });
    const kinds = new Set(cases.flatMap((c) => c.query.map((q) => q.kind)));
    expect(kinds).toEqual(new Set(["valid", "invalid", "odd", "unknown", "repeated"]));
    expect(cases.some((c) => c.query.length === 0)).toBe(true);
    expect(cases.some((c) => c.query.filter((q) => q.kind === "valid").length >= 3)).toBe(true);
    expect(cases.filter((c) => c.twice).length).toBeGreaterThan(40);
    const names = new Set(cases.flatMap((c) => c.query.map((q) => q.name)));
    for (const p of ["lookback", "mode", "ratio", "day", "name", "LOOKBACK", "__proto__"]) expect(names).toContain(p);
  });

  test("the expectation comes from the schemas: a forbidden value, or bad credentials on a secured operation", () => {
    const base = { op: "getChart", headers: {}, pathValues: {}, auth: "valid" as const, twice: false };
    const item = (name: string, raw: string) => ({ name, raw, kind: "valid" as const, how: "valid" });
    const good = { ...base, query: [item("lookback", "1000"), item("mode", "a"), item("x", "1")] };
    expect(expectationOf(chart, good)).toEqual({ violations: [], badCredentials: false });
    const bad = { ...base, query: [item("lookback", "1001"), item("lookback", "1002"), item("mode", "%41")] };
    expect(expectationOf(chart, bad).violations).toEqual([
      'lookback="1001": must be <= 1000',
      'lookback="1002": must be <= 1000',
      'mode="A": must be equal to one of the allowed values (["a","b"])',
    ]);
    expect(expectationOf(chart, { ...good, auth: "forged" }).badCredentials).toBe(true);
    expect(queryString(bad)).toBe("lookback=1001&lookback=1002&mode=%41");
    expect(describeCase(good)).toBe('getChart auth=valid lookback="1000" mode="a" x="1"');
  });

  test("a parameter given twice forbids a 2xx only when every value is forbidden: OpenAPI does not say which one counts", () => {
    const base = { op: "getChart", headers: {}, pathValues: {}, auth: "valid" as const, twice: false };
    const item = (name: string, raw: string) => ({ name, raw, kind: "valid" as const, how: "valid" });
    // The last value wins (the Python second implementation), or the first: either may answer 200 here.
    for (const query of [
      [item("lookback", ""), item("lookback", "5")],
      [item("lookback", "5"), item("lookback", "1001")],
      [item("mode", "a%00"), item("mode", "a")],
    ])
      expect(expectationOf(chart, { ...base, query }).violations).toEqual([]);
    // The same forbidden value twice is still forbidden, as is a forbidden value next to a valid repeated parameter.
    expect(expectationOf(chart, { ...base, query: [item("lookback", "0"), item("lookback", "0")] }).violations).toEqual([
      'lookback="0": must be >= 2',
    ]);
    expect(expectationOf(chart, { ...base, query: [item("mode", "a"), item("mode", "b"), item("ratio", "2")] }).violations).toEqual([
      'ratio="2": must be <= 1',
    ]);
  });

  test("probes are every kind of credential no server may accept", () => {
    const auths = new Set(fc.sample(caseArbitrary(chart, PROBE_AUTHS), { seed: 3, numRuns: 300 }).map((c) => c.auth));
    expect(auths).toEqual(new Set(PROBE_AUTHS));
  });
});
