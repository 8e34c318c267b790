/**
 * The documented parameters agree with the schemas that validate requests (engine FIELDS): every
 * bound documented is accepted, one step past it refused, every allowed value accepted, and
 * the documented default is FIELDS' default — so the document cannot drift from the validation.
 */
import { describe, expect, test } from "bun:test";
import { FIELDS, PARAM_NAMES } from "../params/params-fields.ts";
import { chartParameters } from "./parameters.ts";

const docs = chartParameters() as { name: keyof typeof FIELDS; schema: Record<string, any> }[];
const accepts = (name: keyof typeof FIELDS, raw: string) => FIELDS[name].schema.safeParse(raw).success;

describe("documented parameters", () => {
  test("cover every parameter, once", () => {
    expect(docs.map((d) => d.name).sort()).toEqual([...PARAM_NAMES].sort());
  });

  for (const { name, schema } of docs) {
    test(`${name}: bounds, allowed values and default agree with the validation`, () => {
      if (schema.type === "integer" || schema.type === "number") {
        const step = schema.type === "integer" ? 1 : 0.001;
        expect(accepts(name, String(schema.minimum))).toBe(true);
        expect(accepts(name, String(schema.maximum))).toBe(true);
        expect(accepts(name, String(schema.minimum - step))).toBe(false);
        expect(accepts(name, String(schema.maximum + step))).toBe(false);
      }
      if (schema.enum) {
        for (const v of schema.enum) expect(accepts(name, v)).toBe(true);
        expect(accepts(name, "not-a-value")).toBe(false);
      }
      if (schema.format === "date") {
        expect(accepts(name, "2025-02-28")).toBe(true);
        expect(accepts(name, "2025-02-30")).toBe(false);
      }
      if (schema.pattern) {
        const re = new RegExp(schema.pattern);
        for (const raw of ["A,B", "pagerank", "nifty50"]) if (re.test(raw)) expect(accepts(name, raw)).toBe(true);
      }
      const fieldDefault = FIELDS[name].default;
      if (fieldDefault === null) expect(schema.default).toBeUndefined();
      else
        expect(schema.default).toBe(
          Array.isArray(fieldDefault) ? fieldDefault.join(",") : typeof fieldDefault === "boolean" ? String(fieldDefault) : fieldDefault,
        );
    });
  }
});
