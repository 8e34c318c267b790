/**
 * The metering transaction on PostgreSQL through each driver, side by side in one run, and the
 * same transaction on bun:sqlite (the embedded default) for comparison — to choose the driver by
 * measurement (issue #14). PostgreSQL is a real server on loopback, started by test/support.
 *
 * The transaction is the one src/metering/meter-pg.ts runs: BEGIN; lock the user (an advisory
 * transaction lock on the hashed id, or SELECT … FOR UPDATE on the users row); count the minute
 * window and read the day counter in one statement; insert the audit row and upsert the day
 * counter in one statement; COMMIT. Runs are interleaved round-robin so drift on this shared
 * machine hits every driver alike.
 * Usage: bun bench/pg-driver.bench.ts [runs=3000] [users=50]
 */
import { SQL } from "bun";
import pg from "pg";
import postgres from "postgres";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres } from "../test/support/postgres.ts";
import { migratePg } from "../db/pg/migrate.ts";
import { createPgPool } from "../db/pg/open.ts";
import { createPgMeter } from "../src/metering/meter-pg.ts";
import { openDatabase } from "../db/open.ts";
import { systemClock } from "../src/clock.ts";
import { createSqliteMeter } from "../src/metering/meter-sqlite.ts";

const [runs = 3000, users = 50] = process.argv.slice(2).map(Number);
const db = await startPostgres();
const setup = new SQL(db.url, { max: 1 });
await migratePg(setup);
await setup`INSERT INTO users (id, created_at) SELECT 'user-' || g, 0 FROM generate_series(0, ${users - 1}) g`;
const [{ version }] = await setup`SELECT current_setting('server_version') AS version`;
await setup.close();

const LOCK_ADVISORY = "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))";
const LOCK_ROW = "SELECT 1 FROM users WHERE id = $1 FOR UPDATE";
const READ =
  "SELECT (SELECT count(*)::int FROM request_log WHERE user_id = $1 AND counted = 1 AND ts > $2) AS n, " +
  "(SELECT min(ts) FROM request_log WHERE user_id = $1 AND counted = 1 AND ts > $2) AS oldest, " +
  "(SELECT admitted FROM usage_days WHERE user_id = $1 AND day = $3) AS day";
const WRITE =
  "WITH ins AS (INSERT INTO request_log (request_id, user_id, ts, counted, params, boot_id) VALUES ($1, $2, $3, 1, $4, 'bench') RETURNING id), " +
  "up AS (INSERT INTO usage_days (user_id, day, admitted) VALUES ($2, $5, 1) ON CONFLICT (user_id, day) DO UPDATE SET admitted = usage_days.admitted + 1) " +
  "SELECT id FROM ins";

type Txn = (user: string, i: number) => Promise<void>;
const args = (user: string, i: number) => {
  const now = Date.now();
  return {
    now,
    read: [user, now - 60_000, now - (now % 86_400_000)],
    write: [`r${i}`, user, now, '{"interval":"1d"}', now - (now % 86_400_000)],
  };
};

/** Bun's built-in client (also what drizzle-orm/bun-sql drives). */
function bunSql(lock: string, connection: Record<string, string> = {}): { txn: Txn; close(): Promise<void> } {
  const sql = new SQL(db.url, { max: 1, connection });
  return {
    txn: (user, i) =>
      sql.begin(async (tx) => {
        const a = args(user, i);
        await tx.unsafe(lock, [user]);
        await tx.unsafe(READ, a.read);
        await tx.unsafe(WRITE, a.write);
      }),
    close: () => sql.close(),
  };
}

/** porsager's `postgres`. */
function porsager(lock: string): { txn: Txn; close(): Promise<void> } {
  const sql = postgres(db.url, { max: 1, prepare: true });
  return {
    txn: async (user, i) => {
      await sql.begin(async (tx) => {
        const a = args(user, i);
        await tx.unsafe(lock, [user], { prepare: true });
        await tx.unsafe(READ, a.read as never[], { prepare: true });
        await tx.unsafe(WRITE, a.write as never[], { prepare: true });
      });
    },
    close: () => sql.end(),
  };
}

/** node-postgres with named (prepared) statements. */
function nodePg(lock: string): { txn: Txn; close(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: db.url, max: 1 });
  return {
    txn: async (user, i) => {
      const c = await pool.connect();
      try {
        const a = args(user, i);
        await c.query("BEGIN");
        await c.query({ name: lock === LOCK_ROW ? "lock-row" : "lock-adv", text: lock, values: [user] });
        await c.query({ name: "read", text: READ, values: a.read });
        await c.query({ name: "write", text: WRITE, values: a.write });
        await c.query("COMMIT");
      } catch (err) {
        await c.query("ROLLBACK");
        throw err;
      } finally {
        c.release();
      }
    },
    close: () => pool.end(),
  };
}

/** The meter itself (src/metering/meter-pg.ts) on the chosen driver. */
function pgMeter(): { txn: Txn; close(): Promise<void> } {
  const sql = createPgPool(db.url, { poolSize: 1 });
  const meter = createPgMeter(sql, systemClock, "bench");
  const limits = { perMinute: 1_000_000, perDay: 1_000_000 };
  return {
    txn: async (user, i) => void (await meter.admit({ userId: user, limits, requestId: `r${i}`, params: { interval: "1d" } })),
    close: () => sql.close(),
  };
}

/** The same check-and-record on bun:sqlite: the embedded meter itself, on a WAL file. */
function sqlite(): { txn: Txn; close(): Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), "gs-bench-pgdrv-"));
  const opened = openDatabase(join(dir, "bench.sqlite"));
  const meter = createSqliteMeter(opened.sqlite, systemClock);
  const limits = { perMinute: 1_000_000, perDay: 1_000_000 };
  return {
    txn: async (user, i) => void meter.admit({ userId: user, limits, requestId: `r${i}`, params: { interval: "1d" } }),
    close: async () => {
      opened.sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const contenders: [string, { txn: Txn; close(): Promise<void> }][] = [
  ["Bun.sql, advisory lock", bunSql(LOCK_ADVISORY)],
  ["Bun.sql, row lock (FOR UPDATE)", bunSql(LOCK_ROW)],
  ["Bun.sql, advisory lock, synchronous_commit off", bunSql(LOCK_ADVISORY, { synchronous_commit: "off" })],
  ["postgres (porsager), advisory lock", porsager(LOCK_ADVISORY)],
  ["pg (node-postgres), advisory lock", nodePg(LOCK_ADVISORY)],
  ["meter-pg admit() (Bun.sql, advisory lock)", pgMeter()],
  ["bun:sqlite meter admit() (BEGIN IMMEDIATE, WAL)", sqlite()],
];
const samples = contenders.map(() => [] as number[]);

// Warm-up: connections open, statements prepared, caches hot.
for (let i = 0; i < 200; i++) for (const [, c] of contenders) await c.txn(`user-${i % users}`, -i);
for (let i = 0; i < runs; i++) {
  for (let k = 0; k < contenders.length; k++) {
    const t0 = Bun.nanoseconds();
    await contenders[k]![1].txn(`user-${i % users}`, i);
    samples[k]!.push((Bun.nanoseconds() - t0) / 1e6);
  }
}
for (const [, c] of contenders) await c.close();
await db.stop();

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
};
const rows = contenders.map(([name], k) => {
  const s = samples[k]!;
  return `| ${name} | **${q(s, 0.5).toFixed(3)}** | ${q(s, 0.95).toFixed(3)} | ${q(s, 0.99).toFixed(3)} | ${Math.max(...s).toFixed(2)} |`;
});
console.log(`### Metering transaction: PostgreSQL drivers and SQLite

One connection each, ${runs} transactions each over ${users} users, interleaved; PostgreSQL ${version} on loopback
(default durability: fsync and synchronous_commit on unless said), server start-up ${db.server.startupMs.toFixed(0)} ms.
BEGIN; lock the user; read the minute window and the day counter; insert the audit row and upsert the day; COMMIT.

| driver | median ms | p95 ms | p99 ms | max ms |
|---|---|---|---|---|
${rows.join("\n")}

Target: PostgreSQL median < 1 ms. Driver chosen: Bun.sql (db/pg/open.ts says why). The tail is the
commit's WAL flush to disk: compare the synchronous_commit off row.
`);
process.exit(0);
