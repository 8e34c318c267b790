import { expect, test } from "bun:test";
import { openDatabase } from "../../db/sqlite/open.ts";
import { createSqliteAuthStore } from "../auth/index.ts";
import { resolveSecret } from "../auth/secret.ts";
import { tempDbPath } from "../../test/support/http/harness.ts";
import { runCliInProcess as runCli } from "../../test/support/cli-in-process.ts";

test("secret show prints the secret serve generated and keeps; without one stored it says where the secret is (exit 1)", async () => {
  const path = tempDbPath();
  const opened = openDatabase(path);
  const generated = await resolveSecret(createSqliteAuthStore(opened.sqlite), undefined, () => {});
  opened.sqlite.close();
  const shown = await runCli(["secret", "show", "--db", path, "--no-sample"]);
  expect(shown.code).toBe(0);
  expect(shown.stdout).toBe(`${generated}\n`);

  const given = tempDbPath();
  const other = openDatabase(given);
  await resolveSecret(createSqliteAuthStore(other.sqlite), "a-configured-secret-0123456789", () => {});
  other.sqlite.close();
  const none = await runCli(["secret", "show", "--db", given]);
  expect(none.code).toBe(1);
  expect(none.stdout).toBe("");
  expect(none.stderr).toContain("GRAPH_STATS_JWT_SECRET");
  expect((await runCli(["secret", "print", "--db", given])).code).toBe(2);
});
