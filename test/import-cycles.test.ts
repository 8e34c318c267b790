/** No two files import each other, directly or around a loop: every module can be read (and tested) from its imports down. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { importCycles } from "./support/import-graph.ts";

const ROOT = resolve(import.meta.dir, "..");

describe("import cycles", () => {
  test("none in the repo's TypeScript", () => {
    expect(importCycles(ROOT, ["src", "conformance", "test", "bench", "load", "db"])).toEqual([]);
  });

  test("the walker finds a type-only loop of three files and a dynamic import back", () => {
    const dir = mkdtempSync(join(tmpdir(), "gs-cycles-"));
    try {
      mkdirSync(join(dir, "lib"));
      writeFileSync(join(dir, "lib/a.ts"), 'import type { B } from "./b.ts";\nexport type A = B;\n');
      writeFileSync(join(dir, "lib/b.ts"), 'import {\n  type C,\n} from "./c.ts";\nexport type B = C;\n');
      writeFileSync(join(dir, "lib/c.ts"), 'export interface C { a: import("./a.ts").A }\n');
      writeFileSync(join(dir, "lib/d.ts"), 'export * from "../lib/a.ts";\n');
      writeFileSync(join(dir, "e.ts"), 'import "./lib/d.ts";\nexport const e = () => import("./f.ts");\n');
      writeFileSync(join(dir, "f.ts"), 'export { e } from "./e.ts";\n');
      expect(importCycles(dir, ["."])).toEqual([
        ["e.ts", "f.ts"],
        ["lib/a.ts", "lib/b.ts", "lib/c.ts"],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
