/** The single binary: compiled from cli.ts, run from an unrelated directory against the real server. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { serverBinary } from "../test/support/binary.ts";
import { sampleDb } from "../test/support/http/harness.ts";
import { type RunningServer, startServer } from "./mutants/server-harness.ts";

const SECRET = `conformance-binary-${crypto.randomUUID()}`;
const dir = mkdtempSync(join(tmpdir(), "gs-conformance-bin-"));
const bin = join(dir, "graph-stats-conformance");
let server: RunningServer;

beforeAll(async () => {
  const build = Bun.spawnSync([process.execPath, "build", "--compile", resolve(import.meta.dir, "cli.ts"), "--outfile", bin], {
    stderr: "pipe",
  });
  if (build.exitCode !== 0) throw new Error(`bun build --compile failed: ${build.stderr.toString()}`);
  server = await startServer({ secret: SECRET, perMinute: 1, perDay: 30, db: sampleDb(), bin: await serverBinary() });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("the compiled kit runs the full profile from another directory and writes a JUnit report", async () => {
  const out = join(dir, "report.xml");
  const proc = Bun.spawn([bin, "--base-url", server.url, "--secret", SECRET, "--profile", "full", "--reporter", "junit", "--output", out], {
    cwd: dir,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  expect(stdout.trim()).toMatch(/^\d+ passed, 0 failed, \d+ skipped$/);
  const xml = readFileSync(out, "utf8");
  expect(xml).toContain('failures="0"');
  expect(xml).toContain('name="limits.burst"');
}, 60_000);

test("the compiled kit fuzzes too: fast-check and ajv are bundled, the seed is in the report", async () => {
  const proc = Bun.spawn(
    [bin, "--base-url", server.url, "--secret", SECRET, "--profile", "fuzz", "--seed", "9", "--cases", "20", "--reporter", "json"],
    {
      cwd: dir,
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  const doc = JSON.parse(stdout);
  expect(doc.fuzz).toMatchObject({ seed: 9, casesPerOperation: 20 });
  expect(doc.summary).toMatchObject({ passed: 4, failed: 0 });
}, 60_000);
