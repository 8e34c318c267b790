/** `migrate` says what it did: the migrations it applied, or that there was nothing to apply, and the schema it is at. */
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS } from "../../db/sqlite/migrations.ts";
import { runCliInProcess } from "../../test/support/cli-in-process.ts";

test("a new file is created with every migration; a second run applies none; a database one behind gets that one", async () => {
  const db = join(mkdtempSync(join(tmpdir(), "gs-migrate-")), "m.sqlite");
  const last = MIGRATIONS.at(-1)!.tag;
  const first = await runCliInProcess(["migrate", "--db", db, "--no-sample"]);
  expect(first.stdout).toBe(`database ${db}: created, applied ${MIGRATIONS.length} migrations; schema ${last}\n`);
  const again = await runCliInProcess(["migrate", "--db", db, "--no-sample"]);
  expect(again.stdout).toBe(`database ${db} was already up to date (schema ${last})\n`);
  // As a database last migrated by the previous release: its newest migration's record removed.
  const sqlite = new Database(db);
  sqlite.query("DELETE FROM __migrations WHERE tag = ?").run(last);
  for (const t of ["admin_audit", "plans"]) sqlite.exec(`DROP TABLE ${t}`);
  sqlite.exec("DROP INDEX users_email_idx; DROP INDEX users_plan_idx");
  sqlite.exec("ALTER TABLE users DROP COLUMN plan; ALTER TABLE users DROP COLUMN admin");
  sqlite.exec("ALTER TABLE request_log DROP COLUMN cost_ms; ALTER TABLE request_log DROP COLUMN plan");
  sqlite.close();
  const one = await runCliInProcess(["migrate", "--db", db, "--no-sample"]);
  expect(one.stdout).toBe(`database ${db}: applied 1 migration; schema ${last}\n`);
});
