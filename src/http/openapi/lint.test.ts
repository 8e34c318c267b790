/**
 * docs/openapi.json passes the linters API teams run: Spectral's spectral:oas (spectral.yaml here, with
 * its one rule turned off said why there) and Redocly's recommended rules (redocly.yaml here), with no
 * error and no warning. Each linter is first shown a known fault, so a linter that checks nothing
 * cannot pass.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../../..");
const DOCUMENT = join(ROOT, "docs/openapi.json");
const BIN = join(ROOT, "node_modules/.bin");

async function run(args: string[]): Promise<string> {
  const proc = Bun.spawn(args, {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, NO_COLOR: "1", REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  });
  const [out] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return out;
}

/** Spectral's findings: `rule path: message`, errors and warnings alike. */
async function spectral(file: string): Promise<string[]> {
  const out = await run([
    join(BIN, "spectral"),
    "lint",
    file,
    "--ruleset",
    join(import.meta.dir, "spectral.yaml"),
    "-f",
    "json",
    "--quiet",
  ]);
  const found = JSON.parse(out.slice(out.indexOf("["))) as { code: string; path: string[]; message: string; severity: number }[];
  return found.filter((f) => f.severity <= 1).map((f) => `${f.code} ${f.path.join(".")}: ${f.message}`);
}

/** Redocly's findings: `rule: message`. */
async function redocly(file: string): Promise<string[]> {
  const out = await run([join(BIN, "redocly"), "lint", file, "--config", join(import.meta.dir, "redocly.yaml"), "--format", "json"]);
  const report = JSON.parse(out.slice(out.indexOf("{"))) as { problems: { ruleId: string; message: string }[] };
  return report.problems.map((p) => `${p.ruleId}: ${p.message}`);
}

/** The document with a fault both linters know: a tuple whose `items` is `false`, and an unused schema. */
function faulty(dir: string): string {
  const doc = JSON.parse(readFileSync(DOCUMENT, "utf8"));
  doc.components.schemas.Hierarchy.properties.merges.items.items = false;
  doc.components.schemas.Orphan = { type: "object" };
  const file = join(dir, "faulty.json");
  writeFileSync(file, JSON.stringify(doc));
  return file;
}

describe("OpenAPI lint", () => {
  test("Spectral (spectral:oas) finds nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gs-lint-"));
    try {
      expect((await spectral(faulty(dir))).some((f) => f.startsWith("array-items"))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await spectral(DOCUMENT)).toEqual([]);
  }, 60_000);

  test("Redocly (recommended) finds nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "gs-lint-"));
    try {
      expect((await redocly(faulty(dir))).some((f) => f.startsWith("no-unused-components"))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await redocly(DOCUMENT)).toEqual([]);
  }, 60_000);
});
