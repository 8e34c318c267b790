import { test, expect } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { drizzleOf, openDatabase, migrate } from "./open.ts";
import { bumpDataVersion, getDataVersion } from "../../src/market/data-version.ts";
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

test("0001 backfills usage_days from the audit log, so an upgrade keeps today's quota exact", () => {
  const sqlite = new Database(":memory:");
  sqlite.exec("CREATE TABLE __migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
  for (const stmt of MIGRATIONS[0]!.sql.split("--> statement-breakpoint")) if (stmt.trim()) sqlite.exec(stmt);
  sqlite.query("INSERT INTO __migrations VALUES ('0000_init', 0)").run();
  const day = Date.parse("2026-11-22T00:00:00Z");
  const log = sqlite.query("INSERT INTO request_log (request_id, user_id, ts, counted) VALUES (?, ?, ?, ?)");
  log.run("a", "alice", day + 1000, 1);
  log.run("b", "alice", day + 2000, 1);
  log.run("c", "alice", day + 3000, 0); // refunded or 429: not counted
  log.run("d", "alice", day - 1000, 1); // the day before
  log.run("e", null, day + 4000, 0); // a 401
  expect(migrate(sqlite)).toBe(MIGRATIONS.length - 1);
  expect(sqlite.query("SELECT user_id, day, admitted FROM usage_days ORDER BY day").all()).toEqual([
    { user_id: "alice", day: day - 86_400_000, admitted: 1 },
    { user_id: "alice", day, admitted: 2 },
  ]);
});

test("0005 rebuilds request_log without AUTOINCREMENT: rows and ids kept, the next id max + 1, the meter's index there", () => {
  const sqlite = new Database(":memory:");
  sqlite.exec("CREATE TABLE __migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
  for (const m of MIGRATIONS.slice(0, 5)) {
    for (const stmt of m.sql.split("--> statement-breakpoint")) if (stmt.trim()) sqlite.exec(stmt);
    sqlite.query("INSERT INTO __migrations VALUES (?, 0)").run(m.tag);
  }
  const log = sqlite.query(
    "INSERT INTO request_log (request_id, user_id, ts, status, counted, params, boot_id) VALUES (?, 'u', ?, ?, ?, 'q', 'b')",
  );
  for (let i = 0; i < 5; i++) log.run(`r${i}`, 1000 + i, i === 4 ? null : 200, 1);
  sqlite.exec("DELETE FROM request_log WHERE request_id = 'r1'");
  const before = sqlite.query("SELECT * FROM request_log ORDER BY id").all();
  expect(sqlite.query("SELECT sql FROM sqlite_master WHERE name = 'request_log'").get()).toMatchObject({
    sql: expect.stringContaining("AUTOINCREMENT"),
  });
  expect(migrate(sqlite)).toBe(MIGRATIONS.length - 5);
  expect(sqlite.query("SELECT sql FROM sqlite_master WHERE name = 'request_log'").get()).toMatchObject({
    sql: expect.not.stringContaining("AUTOINCREMENT"),
  });
  // Later migrations add columns (0008: cost_ms, plan), null on the rows kept.
  expect(sqlite.query("SELECT * FROM request_log ORDER BY id").all()).toEqual(
    before.map((r) => ({ ...(r as object), cost_ms: null, plan: null })),
  );
  expect(sqlite.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'request_log'").all()).toEqual([
    { name: "request_log_meter_idx" },
  ]);
  log.run("r5", 2000, null, 1);
  expect(sqlite.query("SELECT max(id) AS id FROM request_log").get()).toEqual({ id: 6 });
});

test("a worker attaches to the server's file: never creates or migrates it, and its read-only modes refuse writes", () => {
  const dir = mkdtempSync(join(tmpdir(), "gs-db-"));
  expect(() => openDatabase(join(dir, "missing.sqlite"), { attach: true })).toThrow();
  new Database(join(dir, "empty.sqlite")).close();
  const bare = openDatabase(join(dir, "empty.sqlite"), { attach: true });
  expect(bare.sqlite.query("SELECT name FROM sqlite_master").all()).toEqual([]);
  bare.sqlite.close();
  const path = join(dir, "x.sqlite");
  const server = openDatabase(path);
  bumpDataVersion(server.sqlite);
  for (const readOnly of ["query", "file"] as const) {
    const worker = openDatabase(path, { attach: true, readOnly, busyTimeoutMs: 1000 });
    expect(worker.created).toBe(false);
    expect(worker.sqlite.query("PRAGMA busy_timeout").get()).toEqual({ timeout: 1000 });
    expect(getDataVersion(worker.sqlite)).toBe(1);
    expect(worker.db).toBe(drizzleOf(worker.sqlite));
    expect(() => bumpDataVersion(worker.sqlite)).toThrow(/readonly/i);
    worker.sqlite.close();
  }
  const checkpointer = openDatabase(path, { attach: true });
  expect(bumpDataVersion(checkpointer.sqlite)).toBe(2);
  checkpointer.sqlite.close();
  server.sqlite.close();
});
