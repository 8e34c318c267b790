import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { decodeQueryValue, invalidValues, oddValues, validValues, violation } from "./values.ts";

const lookback = { type: "integer", minimum: 2, maximum: 1000 };
const ratio = { type: "number", minimum: 0, maximum: 1 };
const mode = { type: "string", enum: ["mst", "knn"] };
const day = { type: "string", format: "date" };
const symbols = { type: "string", pattern: "^[A-Za-z0-9&._-]{1,32}( *, *[A-Za-z0-9&._-]{1,32}){1,499}$" };

const sample = <T>(arb: fc.Arbitrary<T>, n = 300) => fc.sample(arb, { seed: 42, numRuns: n });

describe("violation: what a schema allows, read from a query string", () => {
  test.each([
    ["60", lookback, true],
    ["060", lookback, true],
    ["2", lookback, true],
    ["1000", lookback, true],
    ["1", lookback, false],
    ["1001", lookback, false],
    ["1e1", lookback, false],
    [" 60", lookback, false],
    ["1.5", lookback, false],
    ["", lookback, false],
    ["0.5", ratio, true],
    ["1e-1", ratio, true],
    ["1.001", ratio, false],
    ["NaN", ratio, false],
    ["knn", mode, true],
    ["KNN", mode, false],
    ["2024-02-29", day, true],
    ["2024-02-30", day, false],
    ["2024/01/01", day, false],
    ["M&M,TCS", symbols, true],
    ["TCS", symbols, false],
  ])("%p against %p: allowed %p", (text, schema, allowed) => {
    expect(violation(text, schema) === undefined).toBe(allowed as boolean);
  });

  test("the reason names what is wrong", () => {
    expect(violation("1001", lookback)).toContain("<= 1000");
    expect(violation("KNN", mode)).toContain("allowed values");
  });
});

describe("generation from a schema", () => {
  test("valid values are all allowed and reach every documented bound", () => {
    const ints = sample(validValues(lookback));
    expect(ints.every((v) => violation(v, lookback) === undefined)).toBe(true);
    for (const bound of ["2", "3", "999", "1000"]) expect(ints).toContain(bound);
    const nums = sample(validValues(ratio));
    expect(nums.every((v) => violation(v, ratio) === undefined)).toBe(true);
    expect(nums).toContain("0");
    expect(nums).toContain("1");
    expect(new Set(sample(validValues(mode)))).toEqual(new Set(["mst", "knn"]));
    expect(sample(validValues(day)).every((v) => violation(v, day) === undefined)).toBe(true);
    expect(sample(validValues(symbols), 50).every((v) => violation(v, symbols) === undefined)).toBe(true);
  });

  test("the document's examples come first", () => {
    expect(sample(validValues({ type: "string", pattern: "^[a-z]+$" }, ["sample"]))).toContain("sample");
  });

  test("invalid values break the schema in every kind: out of range, wrong type, not in the enum, not a date", () => {
    const hows = (schema: Record<string, unknown>) => new Set(sample(invalidValues(schema)).map((v) => v.how));
    const intKinds = hows(lookback);
    for (const k of ["min-1", "max+1", "a fraction", "a word", "empty", "exponent form", "30 digits"]) expect(intKinds).toContain(k);
    expect(hows(mode)).toContain("enum value upper-cased");
    expect(hows(day)).toContain("not a calendar date");
    for (const v of sample(invalidValues(lookback)).filter((x) => x.kind === "invalid")) {
      expect(violation(decodeQueryValue(v.raw), lookback)).toBeDefined();
    }
  });

  test("a schema that forbids nothing still generates (random text, judged later) instead of spinning", () => {
    const values = sample(invalidValues({ type: "string" }), 20);
    expect(values).toHaveLength(20);
  });

  test("odd encodings: some decode to the valid value, others damage it", () => {
    const odd = sample(oddValues(fc.constant("60")), 400);
    const decoded = new Map(odd.map((v) => [v.how.replace(/^"60" with /, ""), decodeQueryValue(v.raw)]));
    expect(decoded.get("every byte percent-encoded")).toBe("60");
    expect(decoded.get("%00 appended")).toBe("60\u0000");
    expect(decoded.get("a bad escape %ZZ")).toBe("60%ZZ");
    expect(decoded.get("an overlong UTF-8 /")).toBe("60\uFFFD\uFFFD");
    expect(odd.find((v) => v.how.includes("every byte"))!.raw).toBe("%36%30");
  });
});
