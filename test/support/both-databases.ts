/**
 * The same store tests against both databases (README.md § PostgreSQL): a fresh SQLite file, or a fresh
 * PostgreSQL database from test/support/postgres.ts (a copy of one migrated once per run; openPg
 * then finds every migration applied), per call.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type OpenedDb } from "../../db/sqlite/open.ts";
import { openPg, type OpenedPg } from "../../db/pg/open.ts";
import { startPostgres } from "./postgres.ts";
import type { AuthStore } from "../../src/auth/auth-store.ts";
import { createSqliteAuthStore } from "../../src/auth/auth-stores.ts";
import { createPgAuthStore } from "../../src/auth/auth-stores.ts";

export type Backend =
  | { kind: "sqlite"; sqlite: OpenedDb; close(): Promise<void> }
  | { kind: "postgres"; pg: OpenedPg; url: string; close(): Promise<void> };

export const KINDS = ["sqlite", "postgres"] as const;

const opened: Backend[] = [];

/** Closes every backend this file opened (afterAll). */
export async function closeBackends(): Promise<void> {
  for (const b of opened.splice(0)) await b.close();
}

/** A fresh, migrated database of that kind. */
export async function openBackend(kind: (typeof KINDS)[number]): Promise<Backend> {
  if (kind === "sqlite") {
    const sqlite = openDatabase(join(mkdtempSync(join(tmpdir(), "gs-store-")), "s.sqlite"));
    const b: Backend = { kind, sqlite, close: async () => sqlite.sqlite.close() };
    opened.push(b);
    return b;
  }
  const pgdb = await startPostgres({ migrated: true });
  const pg = await openPg(pgdb.url, { poolSize: 4 });
  const b: Backend = {
    kind,
    pg,
    url: pgdb.url,
    async close() {
      await pg.close();
      await pgdb.stop();
    },
  };
  opened.push(b);
  return b;
}

/**
 * For a file whose cases empty a few tables: a fresh SQLite file per call, but one PostgreSQL
 * database per file, those `tables` truncated per call (a copy per case costs 0.1-0.3 s of CREATE
 * DATABASE). Call at the file's top level; closeBackends() closes it with the rest.
 */
export function emptiedBackends(tables: readonly string[]): (kind: (typeof KINDS)[number]) => Promise<Backend> {
  let pg: Promise<Backend> | undefined;
  return async (kind) => {
    if (kind === "sqlite") return openBackend(kind);
    const b = await (pg ??= openBackend(kind));
    if (b.kind === "postgres") await b.pg.sql.unsafe(`TRUNCATE ${tables.join(", ")}`);
    return b;
  };
}

/** A fresh database of that kind and its AuthStore. */
export async function freshAuthStore(kind: (typeof KINDS)[number]): Promise<{ store: AuthStore; backend: Backend }> {
  const backend = await openBackend(kind);
  return { backend, store: backend.kind === "sqlite" ? createSqliteAuthStore(backend.sqlite.sqlite) : createPgAuthStore(backend.pg.db) };
}

/** Another AuthStore on the same database over its own connection(s), as a second process would have. */
export async function secondAuthStore(b: Backend): Promise<AuthStore> {
  if (b.kind === "sqlite") {
    const other = openDatabase(b.sqlite.path);
    opened.push({ kind: "sqlite", sqlite: other, close: async () => other.sqlite.close() });
    return createSqliteAuthStore(other.sqlite);
  }
  const pg = await openPg(b.url, { poolSize: 4 });
  opened.push({ kind: "postgres", pg, url: b.url, close: () => pg.close() });
  return createPgAuthStore(pg.db);
}

/** The same database over connection(s) of its own, as a second process would have it; closed by closeBackends(). */
export async function sameDatabase(b: Backend): Promise<Backend> {
  if (b.kind === "sqlite") {
    const other = openDatabase(b.sqlite.path);
    const again: Backend = { kind: "sqlite", sqlite: other, close: async () => other.sqlite.close() };
    opened.push(again);
    return again;
  }
  const pg = await openPg(b.url, { poolSize: 4 });
  const again: Backend = { kind: "postgres", pg, url: b.url, close: () => pg.close() };
  opened.push(again);
  return again;
}

/** Key → value of the settings table. */
export async function settingsOf(b: Backend): Promise<Record<string, string>> {
  const rows =
    b.kind === "sqlite"
      ? (b.sqlite.sqlite.query("SELECT key, value FROM settings").all() as { key: string; value: string }[])
      : ((await b.pg.sql`SELECT key, value FROM settings`) as { key: string; value: string }[]);
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

/**
 * Rows of a query written once for both databases: `$1`, `$2` … are its parameters (SQLite gets
 * `?1`, `?2` …); PostgreSQL's bigint columns come back as strings, so the columns named in
 * `numeric` are turned into numbers (null stays null).
 */
export async function query(b: Backend, q: string, args: (string | number | null)[] = [], numeric: readonly string[] = []) {
  const rows =
    b.kind === "sqlite"
      ? (b.sqlite.sqlite.query(q.replace(/\$(\d+)/g, "?$1")).all(...args) as Record<string, unknown>[])
      : ((await b.pg.sql.unsafe(q, args)) as Record<string, unknown>[]);
  return rows.map((r) => {
    const out = { ...r };
    for (const k of numeric) if (out[k] !== null && out[k] !== undefined) out[k] = Number(out[k]);
    return out;
  });
}
