import { describe, expect, test } from "bun:test";
import { UsageError } from "../lib/types.ts";
import { parseDocument } from "./document.ts";
import { FIXTURE, fixtureDocument } from "./fixture.ts";

describe("loading the OpenAPI document", () => {
  test("GET operations are flattened with $refs resolved; other methods are left alone", () => {
    const d = fixtureDocument();
    expect(d.operations.map((o) => [o.id, o.secured])).toEqual([
      ["getChart", true],
      ["getHealth", false],
    ]);
    expect(d.ignored).toEqual(["POST /health"]);
    const chart = d.operations[0]!;
    expect(chart.params.find((p) => p.name === "lookback")).toMatchObject({ in: "query", schema: { type: "integer", minimum: 2 } });
    expect(chart.params.find((p) => p.name === "name")!.examples).toEqual(["abc"]);
    expect(chart.responses["200"]!.headers).toEqual([
      { name: "X-Count", required: true, schema: { type: "integer", minimum: 0 } },
      { name: "X-Optional", required: false, schema: { type: "string", pattern: "^[0-9]+$" } },
    ]);
    // A response by reference is judged against the referenced object's schema.
    expect(chart.responses["400"]!.content["application/json"]!.schema).toBe(
      "#/components/responses/Error/content/application~1json/schema",
    );
    expect(chart.responses["200"]!.content["application/x-ndjson"]!.lineSchema).toContain("x-line-schema");
  });

  test("OpenAPI 3.0 nullable and boolean exclusive bounds become JSON Schema 2020-12", () => {
    const doc = structuredClone(FIXTURE) as any;
    doc.openapi = "3.0.3";
    doc.components.schemas.Row.properties.v = { type: "number", nullable: true };
    doc.components.parameters.lookback.schema = { type: "integer", minimum: 1, exclusiveMinimum: true };
    const d = parseDocument(JSON.stringify(doc), "x");
    expect((d.doc as any).components.schemas.Row.properties.v).toEqual({ type: ["number", "null"] });
    expect(d.operations[0]!.params[0]!.schema).toEqual({ type: "integer", exclusiveMinimum: 1 });
  });

  test.each([
    ["not json", /is not JSON .*--openapi FILE/],
    [JSON.stringify({ swagger: "2.0" }), /not an OpenAPI 3\.0\/3\.1 document .*--openapi FILE/],
    [JSON.stringify({ openapi: "3.1.0" }), /has no "paths"/],
    [
      JSON.stringify({ openapi: "3.1.0", paths: { "/a": { get: { responses: { "200": { $ref: "other.json#/x" } } } } } }),
      /only local references/,
    ],
  ])("%p is refused with what to do", (text, message) => {
    expect(() => parseDocument(text, "doc.json")).toThrow(UsageError);
    expect(() => parseDocument(text, "doc.json")).toThrow(message);
  });
});
