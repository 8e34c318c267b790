/** `--version` names the release, the commit and the schema each database is brought to. */
import { expect, test } from "bun:test";
import { PG_MIGRATIONS } from "../../db/pg/migrations.ts";
import { MIGRATIONS } from "../../db/sqlite/migrations.ts";
import { runCliInProcess } from "../../test/support/cli-in-process.ts";
import pkg from "../../package.json" with { type: "json" };
import { sourceCommit } from "../version.ts";

test("--version: release, this checkout's commit, and both schemas' last migration", async () => {
  const r = await runCliInProcess(["--version"]);
  expect(r.code).toBe(0);
  const c = sourceCommit();
  expect(c).toMatch(/^[0-9a-f]{12}$/); // run from a git checkout
  expect(r.stdout).toBe(
    `graph-stats ${pkg.version} (commit ${c}; schema: SQLite ${MIGRATIONS.at(-1)!.tag}, PostgreSQL ${PG_MIGRATIONS.at(-1)!.tag})\n`,
  );
});
