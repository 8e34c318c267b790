// src/openapi.ts and src/params.ts are what scripts/generate.ts makes of docs/openapi.json today.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { DOCUMENT, PARAMS_FILE, queryNames, renderParams, renderTypes, TYPES_FILE } from "../scripts/generate.ts";

const text = readFileSync(DOCUMENT, "utf8");
const fix = "run `bun clients/typescript/scripts/generate.ts`";

test("the checked-in types are openapi-typescript's output for docs/openapi.json", async () => {
  expect({ stale: readFileSync(TYPES_FILE, "utf8") !== (await renderTypes(text)), fix }).toEqual({ stale: false, fix });
});

test("the checked-in parameter names are docs/openapi.json's", () => {
  expect({ stale: readFileSync(PARAMS_FILE, "utf8") !== renderParams(JSON.parse(text)), fix }).toEqual({ stale: false, fix });
});

test("a parameter added to the document changes both outputs", async () => {
  const document = JSON.parse(text);
  document.paths["/v1/graph-stats/chart"].get.parameters.push({ name: "new_one", in: "query", schema: { type: "string" } });
  expect(queryNames(document, "/v1/graph-stats/chart")).toContain("new_one");
  expect(renderParams(document)).not.toBe(renderParams(JSON.parse(text)));
  expect(await renderTypes(JSON.stringify(document))).toContain("new_one?: string;");
});
