import { test, expect } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, migrate } from "./open.ts";
import { MIGRATIONS } from "./migrations.ts";

test("every drizzle-kit journal entry is embedded", () => {
  const journal = JSON.parse(readFileSync(join(import.meta.dir, "migrations/meta/_journal.json"), "utf8"));
  expect(MIGRATIONS.map((m) => m.tag)).toEqual(journal.entries.map((e: { tag: string }) => e.tag));
});

test("a new file is created, migrated once, and reopened without re-applying", () => {
  const path = join(mkdtempSync(join(tmpdir(), "gs-db-")), "sub", "x.sqlite");
  const first = openDatabase(path);
  expect(first.created).toBe(true);
  const tables = first.sqlite.query("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").all();
  expect(tables.map((t: any) => t.name)).toContain("request_log");
  first.sqlite.close();
  const second = openDatabase(path);
  expect(second.created).toBe(false);
  expect(migrate(second.sqlite)).toBe(0);
  expect(second.sqlite.query("PRAGMA journal_mode").get()).toEqual({ journal_mode: "wal" });
  second.sqlite.close();
});
