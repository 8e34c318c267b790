/** A small OpenAPI document for the fuzzer's own tests: one secured operation, one public, every feature the fuzzer reads. */
import { parseDocument } from "./document.ts";

export const FIXTURE = {
  openapi: "3.1.0",
  info: { title: "fixture", version: "1" },
  paths: {
    "/v1/graph-stats/chart": {
      get: {
        operationId: "getChart",
        security: [{ bearerAuth: [] }],
        parameters: [
          { $ref: "#/components/parameters/lookback" },
          { name: "mode", in: "query", schema: { type: "string", enum: ["a", "b"] } },
          { name: "ratio", in: "query", schema: { type: "number", minimum: 0, maximum: 1 } },
          { name: "day", in: "query", schema: { type: "string", format: "date" } },
          { name: "name", in: "query", schema: { type: "string", pattern: "^[a-z]{1,8}$" }, example: "abc" },
        ],
        responses: {
          "200": {
            description: "ok",
            headers: {
              "X-Count": { $ref: "#/components/headers/X-Count" },
              "X-Optional": { schema: { type: "string", pattern: "^[0-9]+$" } },
            },
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/Ok" } },
              "application/x-ndjson": { schema: { type: "string" }, "x-line-schema": { $ref: "#/components/schemas/Row" } },
            },
          },
          "400": { $ref: "#/components/responses/Error" },
          "401": { $ref: "#/components/responses/Error" },
          "429": { $ref: "#/components/responses/Error" },
          "500": { $ref: "#/components/responses/Error" },
        },
      },
    },
    "/health": {
      get: {
        operationId: "getHealth",
        responses: { "200": { description: "ok", content: { "text/plain": { schema: { type: "string", minLength: 2 } } } } },
      },
      post: { operationId: "postHealth", responses: { "200": { description: "never fuzzed" } } },
    },
  },
  components: {
    parameters: { lookback: { name: "lookback", in: "query", schema: { type: "integer", minimum: 2, maximum: 1000, default: 60 } } },
    headers: { "X-Count": { required: true, schema: { type: "integer", minimum: 0 } } },
    responses: { Error: { description: "an error", content: { "application/json": { schema: { $ref: "#/components/schemas/Err" } } } } },
    schemas: {
      Meta: { type: "object", properties: { generated_at: { type: "string" } }, required: ["generated_at"] },
      Ok: {
        type: "object",
        properties: {
          success: { const: true },
          errors: { type: "array", maxItems: 0 },
          data: { type: "object", properties: { stocks: { type: "array" }, n: { type: "integer" } }, required: ["stocks", "n"] },
          meta: { $ref: "#/components/schemas/Meta" },
        },
        required: ["success", "data", "meta"],
      },
      Err: {
        type: "object",
        properties: {
          success: { const: false },
          errors: { type: "array", minItems: 1 },
          data: { type: "null" },
          meta: { $ref: "#/components/schemas/Meta" },
        },
        required: ["success", "errors", "data", "meta"],
      },
      Row: { type: "object", properties: { v: { type: ["number", "null"] } }, required: ["v"] },
    },
    securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
  },
};

export const fixtureDocument = () => parseDocument(JSON.stringify(FIXTURE), "fixture.json");
