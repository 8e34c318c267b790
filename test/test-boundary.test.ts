/**
 * Test support lives under test/ and only tests (and benchmarks) may import it: the product, the
 * database layer, the conformance kit and the load scripts ship without it.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { importGraph } from "./support/import-graph.ts";

const ROOT = resolve(import.meta.dir, "..");

/** `file → test/… import` for every non-test file under the given folders that imports from test/. */
function importsOfTestTree(root: string, folders: string[]): string[] {
  const testDir = join(root, "test") + sep;
  const found: string[] = [];
  for (const [file, deps] of importGraph(root, folders)) {
    if (file.endsWith(".test.ts") || file.startsWith(testDir)) continue;
    for (const dep of deps) if (dep.startsWith(testDir)) found.push(`${relative(root, file)} → ${relative(root, dep)}`);
  }
  return found.sort();
}

describe("test support stays in test/", () => {
  test("no product, database, kit or load file imports from test/", () => {
    expect(importsOfTestTree(ROOT, ["src", "db", "conformance", "load"])).toEqual([]);
  });

  test("the check finds a product file importing test support, and lets a test file do so", () => {
    const dir = mkdtempSync(join(tmpdir(), "gs-boundary-"));
    try {
      mkdirSync(join(dir, "src"));
      mkdirSync(join(dir, "test"));
      writeFileSync(join(dir, "test/helper.ts"), "export const h = 1;\n");
      writeFileSync(join(dir, "src/app.ts"), 'import { h } from "../test/helper.ts";\nexport const a = h;\n');
      writeFileSync(join(dir, "src/app.test.ts"), 'import { h } from "../test/helper.ts";\nvoid h;\n');
      expect(importsOfTestTree(dir, ["src"])).toEqual(["src/app.ts → test/helper.ts"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
