import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";

const CLI = resolve(import.meta.dir, "cli.ts");

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const proc = Bun.spawn([process.execPath, CLI, ...args], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

describe("cli exit codes", () => {
  test("bad usage exits 2 with a precise message", async () => {
    const r = await run(["--base-url", "http://127.0.0.1:1", "--profile", "strict"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--profile must be core, full or fuzz, got 'strict'");
  });

  test("an unreachable target exits 2", async () => {
    // Port 1 on loopback: nothing listens there.
    const r = await run(["--base-url", "http://127.0.0.1:1"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("cannot reach http://127.0.0.1:1/health");
  });

  test("an unknown --only id exits 2 before any request", async () => {
    const r = await run(["--base-url", "http://127.0.0.1:1", "--only", "no.such-check"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown check id(s): no.such-check");
  });

  test("--list prints every check id with its profile and citation", async () => {
    const r = await run(["--list"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^limits\.burst\tcore\tdocs\/api\.md § Metering\t/m);
    expect(r.stdout).toMatch(/^auth\.not-yet-valid\tfull\tdocs\/api\.md § Tokens\t/m);
    expect(r.stdout).toMatch(/^fuzz\.live\tfuzz\t/m);
    const fuzzOnly = await run(["--list", "--profile", "fuzz"]);
    expect(
      fuzzOnly.stdout
        .trim()
        .split("\n")
        .map((l) => l.split("\t")[0]),
    ).toEqual(["fuzz.document", "fuzz.public", "fuzz.live", "fuzz.credentials"]);
  });
});
