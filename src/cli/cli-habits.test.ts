/** Issue #11 §7, the CLI habits: per-command --help with examples; revoking an unknown jti exits non-zero. */
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCliInProcess as runCli } from "../../test/support/cli-in-process.ts";

describe("per-command help", () => {
  for (const name of ["serve", "migrate", "import", "token", "user", "usage"]) {
    test(`${name} --help and help ${name} print the command's own help with an example`, async () => {
      for (const args of [
        [name, "--help"],
        ["help", name],
      ]) {
        const r = await runCli(args);
        expect(r.code).toBe(0);
        expect(r.stdout).toStartWith(`graph-stats ${name}`);
        expect(r.stdout).toMatch(/Examples?:\n {2}/);
      }
    }, 30_000);
  }

  test("--help alone prints the overview, pointing at per-command help", async () => {
    const r = await runCli(["--help"]);
    expect(r.stdout).toContain("Commands:");
    expect(r.stdout).toContain("'graph-stats <command> --help'");
  }, 30_000);
});

test("token revoke: a known jti exits 0; an unknown one exits 1 and says so", async () => {
  const db = join(mkdtempSync(join(tmpdir(), "gs-habits-")), "db.sqlite");
  expect((await runCli(["migrate", "--db", db, "--no-sample"])).code).toBe(0);
  const minted = await runCli(["token", "create", "--db", db, "--user", "u1", "--json"], { GRAPH_STATS_JWT_SECRET: "" });
  const [{ jti }] = JSON.parse(minted.stdout);
  const known = await runCli(["token", "revoke", "--db", db, jti]);
  expect(known.code).toBe(0);
  expect(known.stdout).toBe(`${jti}: revoked\n`);
  const typo = await runCli(["token", "revoke", "--db", db, "no-such-jti"]);
  expect(typo.code).toBe(1);
  expect(typo.stderr).toContain("never minted by this database");
}, 30_000);
