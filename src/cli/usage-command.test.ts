/** `usage` reads known users from the audit log and unauthenticated requests from their per-minute counts. */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../db/sqlite/open.ts";
import { TestClock } from "../clock.ts";
import { createSqliteMeter } from "../metering/index.ts";
import { runCliInProcess as runCli } from "../../test/support/cli-in-process.ts";
import { createPgMeter } from "../metering/meters.ts";
import { openPg } from "../../db/pg/open.ts";
import { startPostgres, type TestDatabase } from "../../test/support/postgres.ts";

let pgdb: TestDatabase | undefined;
afterAll(async () => {
  await pgdb?.stop();
});

const DAY = 86_400_000;
const today = Math.floor(Date.now() / DAY) * DAY;

test("usage: per user and UTC day from request_log; unauthenticated requests per day and code from unauthenticated_counts", async () => {
  const db = join(mkdtempSync(join(tmpdir(), "gs-usage-")), "db.sqlite");
  const opened = openDatabase(db);
  const clock = new TestClock(today - DAY + 3_600_000);
  const meter = createSqliteMeter(opened.sqlite, clock);
  const limits = { perMinute: 1, perDay: 100 };
  const anon = (code: string) => meter.logUnmetered({ userId: null, requestId: "x", status: 401, code, params: "", durationMs: 0 });
  const a = await meter.admit({ userId: "alice", limits, requestId: "a1", params: "" });
  if (a.ok) await meter.finish(a.logId, 200, 7);
  await meter.admit({ userId: "alice", limits, requestId: "a2", params: "" }); // 429
  await anon("UNAUTHORIZED");
  await anon("UNAUTHORIZED");
  clock.set(today + 3_600_000);
  await meter.logUnmetered({ userId: "alice", requestId: "a3", status: 400, code: "BAD_REQUEST", params: "lookback=x", durationMs: 1 });
  await anon("UNAUTHORIZED");
  clock.tick(120_000);
  await anon("UNAUTHORIZED");
  await anon("INVALID_TOKEN");
  await meter.flush();
  opened.sqlite.close();

  const r = await runCli(["usage", "--db", db, "--days", "2", "--json"]);
  expect(r.code).toBe(0);
  const yesterday = new Date(today - DAY).toISOString().slice(0, 10);
  const day = new Date(today).toISOString().slice(0, 10);
  expect(JSON.parse(r.stdout)).toEqual([
    { user: "alice", day: yesterday, admitted: 1, refused: 1, uncounted: 0, compute_ms: 7 },
    { user: null, day: yesterday, admitted: 0, refused: 0, uncounted: 2, code: "UNAUTHORIZED" },
    { user: "alice", day, admitted: 0, refused: 0, uncounted: 1, compute_ms: 0 },
    { user: null, day, admitted: 0, refused: 0, uncounted: 1, code: "INVALID_TOKEN" },
    { user: null, day, admitted: 0, refused: 0, uncounted: 2, code: "UNAUTHORIZED" },
  ]);

  const text = await runCli(["usage", "--db", db, "--days", "2"]);
  expect(text.stdout).toContain(`${day}\t(unauthenticated: UNAUTHORIZED)\t0\t0\t2\t`);
  expect(text.stdout).toContain(`${yesterday}\talice\t1\t1\t0\t7`);
  const one = await runCli(["usage", "--db", db, "--days", "2", "--user", "alice", "--json"]);
  expect(JSON.parse(one.stdout).map((x: { user: string }) => x.user)).toEqual(["alice", "alice"]);
}, 30_000);

test("usage --database-url: the same report from PostgreSQL, aggregated audit rows weighted", async () => {
  pgdb = await startPostgres();
  const pg = await openPg(pgdb.url, { poolSize: 2 });
  const clock = new TestClock(today - DAY + 3_600_000);
  const meter = createPgMeter(pg.sql, clock);
  const limits = { perMinute: 1, perDay: 100 };
  const a = await meter.admit({ userId: "alice", limits, requestId: "a1", params: "" });
  if (a.ok) await meter.finish(a.logId, 200, 12);
  await meter.admit({ userId: "alice", limits, requestId: "a2", params: "" }); // 429
  await meter.logUnmetered({ userId: null, requestId: "x", status: 401, code: "UNAUTHORIZED", params: "", durationMs: 0 });
  clock.set(today + 3_600_000);
  await meter.logUnmetered({ userId: "alice", requestId: "a3", status: 400, code: "BAD_REQUEST", params: "lookback=x", durationMs: 1 });
  await pg.sql`INSERT INTO request_log (request_id, user_id, ts, status, counted, code, params) VALUES ('aggregated', 'alice', ${today + 60_000}, 403, 0, 'FORBIDDEN', '{"aggregated":5}')`;
  await meter.flush();
  await pg.close();

  const r = await runCli(["usage", "--database-url", pgdb.url, "--days", "2", "--json"]);
  expect(r.stderr).toBe("");
  const yesterday = new Date(today - DAY).toISOString().slice(0, 10);
  const day = new Date(today).toISOString().slice(0, 10);
  expect(JSON.parse(r.stdout)).toEqual([
    { user: "alice", day: yesterday, admitted: 1, refused: 1, uncounted: 0, compute_ms: 12 },
    { user: null, day: yesterday, admitted: 0, refused: 0, uncounted: 1, code: "UNAUTHORIZED" },
    { user: "alice", day, admitted: 0, refused: 0, uncounted: 6, compute_ms: 0 },
  ]);
}, 60_000);
