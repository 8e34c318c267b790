/**
 * `migrate` says what it did: the migrations it applied, or that there was nothing to apply, and the
 * schema it is at; `migrate --status` says what is applied and pending and changes nothing. On
 * both databases; stdout holds the answer alone (the process's own streams, from the binary).
 */
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PG_MIGRATIONS } from "../../db/pg/migrations.ts";
import { MIGRATIONS } from "../../db/sqlite/migrations.ts";
import { runCliInProcess } from "../../test/support/cli-in-process.ts";
import { runCli } from "../../test/support/http/process.ts";
import { startPostgres, type TestDatabase } from "../../test/support/postgres.ts";

const pgs: TestDatabase[] = [];
afterAll(async () => {
  for (const d of pgs) await d.stop();
});

const tempDb = () => join(mkdtempSync(join(tmpdir(), "gs-migrate-")), "m.sqlite");
const ISO = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z";

/** The lines `--status` prints for each migration, `pending` those not in `applied`. */
const statusLines = (tags: string[], applied: Set<string>) =>
  tags.map((t) => (applied.has(t) ? new RegExp(`^applied  ${t}  ${ISO}$`) : new RegExp(`^pending  ${t}$`)));

function expectLines(stdout: string, patterns: (RegExp | string)[]) {
  const lines = stdout.trimEnd().split("\n");
  expect(lines).toHaveLength(patterns.length);
  patterns.forEach((p, i) => (typeof p === "string" ? expect(lines[i]).toBe(p) : expect(lines[i]).toMatch(p)));
}

/** As a database last migrated by the previous release: its newest migration's record and objects removed. */
function oneBehind(db: string) {
  const sqlite = new Database(db);
  // The last migration (0009_admin_audit_actor_index) undone: its record and its index.
  sqlite.query("DELETE FROM __migrations WHERE tag = ?").run(MIGRATIONS.at(-1)!.tag);
  sqlite.exec("DROP INDEX admin_audit_actor_idx");
  sqlite.close();
}

test("a new file is created with every migration; a second run applies none; a database one behind gets that one", async () => {
  const db = tempDb();
  const last = MIGRATIONS.at(-1)!.tag;
  const first = await runCliInProcess(["migrate", "--db", db, "--no-sample"]);
  expect(first.stdout).toBe(`database ${db}: created, applied ${MIGRATIONS.length} migrations; schema ${last}\n`);
  const again = await runCliInProcess(["migrate", "--db", db, "--no-sample"]);
  expect(again.stdout).toBe(`database ${db} was already up to date (schema ${last})\n`);
  oneBehind(db);
  const one = await runCliInProcess(["migrate", "--db", db, "--no-sample"]);
  expect(one.stdout).toBe(`database ${db}: applied 1 migration; schema ${last}\n`);
});

test("SQLite --status: a missing file is all pending and stays missing; one behind lists that one pending, exit 1; migrated, exit 0", async () => {
  const db = tempDb();
  const tags = MIGRATIONS.map((m) => m.tag);
  const missing = await runCliInProcess(["migrate", "--status", "--db", db]);
  expect(missing).toEqual({
    code: 1,
    stdout: `no database at ${db}: all ${tags.length} migrations pending ('graph-stats migrate --db ${db}' creates it)\n`,
    stderr: "",
  });
  expect(existsSync(db)).toBe(false);

  expect((await runCliInProcess(["migrate", "--db", db, "--no-sample"])).code).toBe(0);
  oneBehind(db);
  const behind = await runCliInProcess(["migrate", "--status", "--db", db]);
  expect(behind.code).toBe(1);
  expectLines(behind.stdout, [
    `database ${db}: ${tags.length - 1} of ${tags.length} migrations applied, 1 pending ('graph-stats migrate' applies them)`,
    ...statusLines(tags, new Set(tags.slice(0, -1))),
  ]);
  // A dry run: asking again finds the same.
  expect((await runCliInProcess(["migrate", "--status", "--db", db])).stdout).toBe(behind.stdout);

  expect((await runCliInProcess(["migrate", "--db", db, "--no-sample"])).stdout).toBe(
    `database ${db}: applied 1 migration; schema ${tags.at(-1)}\n`,
  );
  const done = await runCliInProcess(["migrate", "--status", "--db", db]);
  expect(done.code).toBe(0);
  expectLines(done.stdout, [
    `database ${db} is up to date: ${tags.length} of ${tags.length} migrations applied; schema ${tags.at(-1)}`,
    ...statusLines(tags, new Set(tags)),
  ]);
});

test("PostgreSQL from the binary: --status before and after; migrate's stdout is its answer alone, with no log lines on either stream", async () => {
  const pg = await startPostgres();
  pgs.push(pg);
  const env = { GRAPH_STATS_DATABASE_URL: pg.url };
  const where = pg.url.replace(/:[^:@/]+@/, ":***@");
  const tags = PG_MIGRATIONS.map((m) => m.tag);

  const before = await runCli(["migrate", "--status"], { env });
  expect({ code: before.code, stderr: before.stderr }).toEqual({ code: 1, stderr: "" });
  expectLines(before.stdout, [
    `database ${where}: 0 of ${tags.length} migrations applied, ${tags.length} pending ('graph-stats migrate' applies them)`,
    ...statusLines(tags, new Set()),
  ]);

  const migrated = await runCli(["migrate"], { env });
  expect(migrated).toMatchObject({ code: 0, stderr: "" });
  expect(migrated.stdout).toBe(
    `database ${where}: applied ${tags.length} migrations; schema ${tags.at(-1)}\n` +
      "loaded the synthetic sample: universe sample, 50 symbols\n",
  );
  const again = await runCli(["migrate"], { env });
  expect(again).toMatchObject({ code: 0, stdout: `database ${where} was already up to date (schema ${tags.at(-1)})\n`, stderr: "" });

  const after = await runCli(["migrate", "--status"], { env });
  expect({ code: after.code, stderr: after.stderr }).toEqual({ code: 0, stderr: "" });
  expectLines(after.stdout, [
    `database ${where} is up to date: ${tags.length} of ${tags.length} migrations applied; schema ${tags.at(-1)}`,
    ...statusLines(tags, new Set(tags)),
  ]);
}, 60_000);
