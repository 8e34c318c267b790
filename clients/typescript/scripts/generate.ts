/**
 * Writes src/openapi.ts (request and response types, by openapi-typescript) and src/params.ts (each
 * route's query parameter names, for the check before a request) from docs/openapi.json.
 * `bun clients/typescript/scripts/generate.ts`; test/generated.test.ts fails when either is stale.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";

export const ROOT = resolve(import.meta.dir, "..");
export const DOCUMENT = resolve(ROOT, "../../docs/openapi.json");
export const TYPES_FILE = join(ROOT, "src/openapi.ts");
export const PARAMS_FILE = join(ROOT, "src/params.ts");

const ROUTES = { CHART: "/v1/graph-stats/chart", DEMO: "/v1/demo/chart" } as const;

interface Parameter {
  name: string;
  in: string;
  $ref?: string;
}
type Document = { paths: Record<string, { get?: { parameters?: Parameter[] } }>; components?: Record<string, Record<string, Parameter>> };

/** The query parameter names of GET `path`, in the document's order (references resolved). */
export function queryNames(document: Document, path: string): string[] {
  const parameters = document.paths[path]?.get?.parameters ?? [];
  return parameters
    .map((p) => {
      if (!p.$ref) return p;
      const [, , group, name] = p.$ref.split("/");
      return document.components?.[group!]?.[name!] as Parameter;
    })
    .filter((p) => p.in === "query")
    .map((p) => p.name);
}

export async function renderTypes(text: string): Promise<string> {
  const header = "// Generated from docs/openapi.json by openapi-typescript (scripts/generate.ts); do not edit.\n";
  return header + astToString(await openapiTS(text));
}

export function renderParams(document: Document): string {
  const lines = ["// Generated from docs/openapi.json by scripts/generate.ts; do not edit.", ""];
  for (const [name, path] of Object.entries(ROUTES)) {
    lines.push(`export const ${name}_PATH = ${JSON.stringify(path)};`);
    lines.push(`export const ${name}_PARAMS = ${JSON.stringify(queryNames(document, path))} as const;`);
  }
  return `${lines.join("\n")}\n`;
}

if (import.meta.main) {
  const text = readFileSync(DOCUMENT, "utf8");
  writeFileSync(TYPES_FILE, await renderTypes(text));
  writeFileSync(PARAMS_FILE, renderParams(JSON.parse(text)));
  console.log(`wrote ${TYPES_FILE} and ${PARAMS_FILE}`);
}
