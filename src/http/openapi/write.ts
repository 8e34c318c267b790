/** `npm run openapi`: writes docs/openapi.json, the document the server serves at /openapi.json. */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import pkg from "../../../package.json" with { type: "json" };
import { documentJson } from "./document.ts";

export const COMMITTED_PATH = resolve(import.meta.dir, "../../../docs/openapi.json");

if (import.meta.main) {
  writeFileSync(COMMITTED_PATH, documentJson(pkg.version));
  console.log(`wrote ${COMMITTED_PATH}`);
}
