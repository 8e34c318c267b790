import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "../..");

describe("reference implementations", () => {
  test("no product file imports them (only tests and benches may)", () => {
    const offenders: string[] = [];
    for (const file of new Glob("{src,db,conformance}/**/*.ts").scanSync(ROOT)) {
      if (file.endsWith(".test.ts")) continue;
      if (/from\s+["'][^"']*test\/reference\//.test(readFileSync(join(ROOT, file), "utf8"))) offenders.push(file);
    }
    expect(offenders).toEqual([]);
  });
});
