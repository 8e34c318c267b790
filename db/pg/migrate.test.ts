/**
 * PostgreSQL migrations against a real server: every drizzle-kit journal entry is embedded, the
 * schema mirrors the SQLite one table for table and column for column, and several instances
 * starting at once apply each migration exactly once.
 */
import { test, expect, afterAll } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { getTableConfig as sqliteConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { getTableConfig as pgConfig, PgTable } from "drizzle-orm/pg-core";
import { startPostgres, type TestDatabase } from "../../test/support/postgres.ts";
import * as liteSchema from "../sqlite/schema.ts";
import * as pgSchema from "./schema.ts";
import { PG_MIGRATIONS } from "./migrations.ts";
import { appliedMigrationsPg, migratePg } from "./migrate.ts";
import { openPg, createPgPool } from "./open.ts";

const dbs: TestDatabase[] = [];
afterAll(async () => {
  for (const d of dbs) await d.stop();
});

test("every drizzle-kit journal entry is embedded", () => {
  const journal = JSON.parse(readFileSync(join(import.meta.dir, "migrations/meta/_journal.json"), "utf8"));
  expect(PG_MIGRATIONS.map((m) => m.tag)).toEqual(journal.entries.map((e: { tag: string }) => e.tag));
});

test("the PostgreSQL schema has every SQLite table and column, with the same keys and nullability", () => {
  const describe = (t: {
    name: string;
    columns: { name: string; notNull: boolean; primary: boolean }[];
    primaryKeys: { columns: { name: string }[] }[];
    indexes: unknown[];
  }) => ({
    name: t.name,
    columns: t.columns.map((c) => `${c.name}${c.notNull ? " not null" : ""}${c.primary ? " pk" : ""}`).sort(),
    primaryKey: t.primaryKeys.map((k) => k.columns.map((c) => c.name)),
    indexes: t.indexes.length,
  });
  const lite = Object.values(liteSchema)
    .filter((t) => t instanceof SQLiteTable)
    .map((t) => describe(sqliteConfig(t as never) as never));
  const pg = Object.values(pgSchema)
    .filter((t) => t instanceof PgTable)
    .map((t) => describe(pgConfig(t as never) as never));
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  expect(pg.sort(byName)).toEqual(lite.sort(byName));
});

test("three instances starting together apply each migration once; a later start applies none", async () => {
  const db = await startPostgres();
  dbs.push(db);
  const pools = [0, 1, 2].map(() => createPgPool(db.url, { poolSize: 2 }));
  try {
    const applied = await Promise.all(pools.map((p) => migratePg(p)));
    expect(applied.reduce((a, b) => a + b, 0)).toBe(PG_MIGRATIONS.length);
    const [{ n }] = await pools[0]!`SELECT count(*)::int AS n FROM __migrations`;
    expect(n).toBe(PG_MIGRATIONS.length);
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
  const again = await openPg(db.url);
  expect(again.applied).toBe(0);
  const tables = await again.sql`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`;
  expect(tables.map((t: { tablename: string }) => t.tablename)).toContain("request_log");
  await again.close();
});

test("of instances starting together, one applies every pending migration and the others none (which one created the schema is certain)", async () => {
  // A slow first migration lets the others queue on the lock. With a lock per migration, one
  // instance applied the first and another the next: none had "created the schema", and three
  // instances starting together on a fresh database loaded no sample (seen in CI).
  const migrations = [
    { tag: "0000_slow", sql: "SELECT pg_sleep(0.3);--> statement-breakpoint\nCREATE TABLE m0 (x int);" },
    { tag: "0001", sql: "CREATE TABLE m1 (x int);" },
    { tag: "0002", sql: "CREATE TABLE m2 (x int);" },
    { tag: "0003", sql: "CREATE TABLE m3 (x int);" },
  ];
  for (let round = 0; round < 3; round++) {
    const db = await startPostgres();
    dbs.push(db);
    const pools = [0, 1, 2].map(() => createPgPool(db.url, { poolSize: 2 }));
    try {
      const applied = await Promise.all(pools.map((p) => migratePg(p, migrations)));
      expect(applied.sort((a, b) => a - b)).toEqual([0, 0, migrations.length]);
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }
  }
});

test("a failing migration leaves nothing behind and is retried at the next start", async () => {
  const db = await startPostgres();
  dbs.push(db);
  const pool = createPgPool(db.url, { poolSize: 1 });
  try {
    const broken = [{ tag: "0000_broken", sql: "CREATE TABLE half (x int);--> statement-breakpoint\nCREATE TABLE half (y int);" }];
    await expect(migratePg(pool, broken)).rejects.toThrow();
    const [{ half }] = await pool`SELECT to_regclass('half') IS NOT NULL AS half`;
    expect(half).toBe(false);
    expect(await migratePg(pool, [{ tag: "0000_broken", sql: "CREATE TABLE half (x int);" }])).toBe(1);
  } finally {
    await pool.close();
  }
});

test("the records --status reads: none on a database never migrated, then each applied tag once, in order", async () => {
  const db = await startPostgres();
  dbs.push(db);
  const pool = createPgPool(db.url, { poolSize: 1 });
  try {
    expect(await appliedMigrationsPg(pool)).toEqual([]);
    const migrations = [
      { tag: "0000_a", sql: "CREATE TABLE a (x int);" },
      { tag: "0001_b", sql: "CREATE TABLE b (x int);" },
    ];
    expect(await migratePg(pool, migrations.slice(0, 1))).toBe(1);
    expect((await appliedMigrationsPg(pool)).map((r) => r.tag)).toEqual(["0000_a"]);
    expect(await migratePg(pool, migrations)).toBe(1);
    const records = await appliedMigrationsPg(pool);
    expect(records.map((r) => r.tag)).toEqual(["0000_a", "0001_b"]);
    const [{ first }] = await pool`SELECT applied_at::text AS first FROM __migrations WHERE tag = '0000_a'`;
    expect(records[0]!.appliedAt).toBe(Number(first));
  } finally {
    await pool.close();
  }
});
