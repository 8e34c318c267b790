// The client is its own package that runs wherever fetch does: src/ imports only src/, and nothing of
// Node or Bun (no node:/bun: modules, no Buffer or process beyond an optional read of process.env).
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { importGraph } from "../../../test/support/import-graph.ts";

const ROOT = resolve(import.meta.dir, "../../..");
const SRC = resolve(import.meta.dir, "../src");

test("src/ imports nothing outside itself", () => {
  const outside = [...importGraph(ROOT, ["clients/typescript/src"])].flatMap(([file, deps]) =>
    deps.filter((d) => !d.startsWith(SRC + sep)).map((d) => `${relative(ROOT, file)} → ${relative(ROOT, d)}`),
  );
  expect(outside).toEqual([]);
});

test("src/ uses no runtime-specific module or global", () => {
  const found: string[] = [];
  for (const name of readdirSync(SRC)) {
    const text = readFileSync(join(SRC, name), "utf8");
    for (const m of text.matchAll(/from\s+["']((?:node|bun):[^"']+|[^."'][^"']*)["']|\b(Buffer|Bun|Deno|require)\b[.(]/g))
      found.push(`${name}: ${m[1] ?? m[2]}`);
  }
  expect(found).toEqual([]);
});
