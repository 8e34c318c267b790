/**
 * Audit findings on the CLI (README.md § CLI): read-only commands must not
 * create a database at a mistyped path, contradictory flags are a usage error (exit 2), and a
 * timestamp that is neither ISO 8601 with an offset nor a plain date rejects the file with
 * `file:line: reason`. The CLI runs in this process (test/support/cli-in-process.ts): what it
 * prints, returns and writes is under test, not its process.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCliInProcess as runCli } from "../../test/support/cli-in-process.ts";
import { sampleDb } from "../../test/support/http/harness.ts";

const tempDir = () => mkdtempSync(join(tmpdir(), "gs-audit-cli-"));

describe("read-only commands against a missing database file", () => {
  for (const args of [["usage"], ["token", "list"]]) {
    test(`${args.join(" ")} --db <missing> fails clearly and creates nothing`, async () => {
      const db = join(tempDir(), "typo", "graph-stats.sqlite");
      const r = await runCli([...args, "--db", db]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(db);
      expect(existsSync(db)).toBe(false);
    }, 30_000);
  }
});

describe("contradictory flags", () => {
  test("user limits ID --per-minute N --reset is a usage error (exit 2), not a silent reset", async () => {
    const db = sampleDb();
    expect((await runCli(["user", "create", "lim", "--db", db])).code).toBe(0);
    const r = await runCli(["user", "limits", "lim", "--per-minute", "5", "--reset", "--db", db]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--reset");
  }, 30_000);
});

describe("bad configuration values name what is allowed", () => {
  test("GRAPH_STATS_SAMPLE=maybe exits 2 naming the variable and the accepted values", async () => {
    const db = join(tempDir(), "db.sqlite");
    const r = await runCli(["migrate", "--db", db], { GRAPH_STATS_SAMPLE: "maybe" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("GRAPH_STATS_SAMPLE");
    expect(r.stderr).toContain("'maybe'");
    expect(r.stderr).toMatch(/true.*false/);
  }, 30_000);
});

describe("compute threads", () => {
  test("--compute-threads outside 0…64 exits 2 naming the flag, its variable and the range", async () => {
    const db = join(tempDir(), "db.sqlite");
    for (const [args, env] of [
      [["--compute-threads", "65"], {}],
      [[], { GRAPH_STATS_COMPUTE_THREADS: "-1" }],
    ] as const) {
      const r = await runCli(["migrate", "--db", db, ...args], env);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("--compute-threads (GRAPH_STATS_COMPUTE_THREADS)");
      expect(r.stderr).toContain("from 0 to 64");
    }
  }, 30_000);
});

describe("import timestamps (README.md § CLI: ISO 8601 with offset, or a plain date)", () => {
  test("a date-time without an offset rejects the file with file:line: reason (exit 1)", async () => {
    const dir = tempDir();
    const file = join(dir, "NAIVE.csv");
    writeFileSync(file, "timestamp,open,high,low,close,volume\n2024-01-01T09:15:00,1,2,0.5,1.5,100\n");
    const r = await runCli(["import", "--db", join(dir, "db.sqlite"), "--no-sample", "--universe", "t", file]);
    expect(r.code).toBe(1);
    expect(r.stderr + r.stdout).toContain(`${file}:2:`);
  }, 30_000);
});
