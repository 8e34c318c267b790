/** `npm run openapi`: writes docs/openapi.json (the document the server serves at /openapi.json) and the parameter tables. */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import pkg from "../../../package.json" with { type: "json" };
import { readFileSync } from "node:fs";
import { documentJson } from "./document.ts";
import { withParameterTable } from "./parameter-table.ts";

export const COMMITTED_PATH = resolve(import.meta.dir, "../../../docs/openapi.json");
/** The files that carry the parameter table (parameter-table.ts). */
export const TABLE_PATHS = [resolve(import.meta.dir, "../../../README.md"), resolve(import.meta.dir, "../../../docs/api.md")];

if (import.meta.main) {
  writeFileSync(COMMITTED_PATH, documentJson(pkg.version));
  console.log(`wrote ${COMMITTED_PATH}`);
  for (const path of TABLE_PATHS) {
    writeFileSync(path, withParameterTable(readFileSync(path, "utf8"), path));
    console.log(`wrote the parameter table into ${path}`);
  }
}
