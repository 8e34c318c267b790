/** Audit retention, case for case the same on SQLite and PostgreSQL (retention.ts over each database's port). */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { JOURNAL_SIZE_LIMIT, openDatabase } from "../../db/open.ts";
import { closeBackends, KINDS, openBackend } from "../../test/support/both-databases.ts";
import { TestClock } from "../clock.ts";
import { createPgMeter } from "./meter-pg.ts";
import { createSqliteMeter } from "./meter-sqlite.ts";
import { pruneAudit } from "./retention.ts";
import { pgRetentionPort } from "./retention-pg.ts";
import { sqliteRetentionPort } from "./retention-sqlite.ts";
import { DAY_MS } from "./windows.ts";

afterAll(closeBackends);

const T = Date.parse("2026-11-22T10:00:00Z");

describe.each(KINDS)("on %s", (kind) => {
  const setup = async () => {
    const b = await openBackend(kind);
    const port = b.kind === "sqlite" ? sqliteRetentionPort(b.sqlite.sqlite) : pgRetentionPort(b.pg.sql);
    const meterAt = (clock: TestClock) =>
      b.kind === "sqlite" ? createSqliteMeter(b.sqlite.sqlite, clock) : createPgMeter(b.pg.sql, clock);
    const rows = async (q: string): Promise<Record<string, number>[]> => {
      const all = b.kind === "sqlite" ? (b.sqlite.sqlite.query(q).all() as Record<string, unknown>[]) : await b.pg.sql.unsafe(q);
      return all.map((r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)])));
    };
    /** Answered audit rows of user u at these times, in this id order. */
    const insertAt = (times: number[]) =>
      rows(`INSERT INTO request_log (request_id, user_id, ts, status, counted, params)
        VALUES ${times.map((ts, i) => `('r${i}', 'u', ${ts}, 200, 0, '')`).join(", ")}`);
    return { port, meterAt, rows, insertAt };
  };

  test("the newest audit row stays even when every row is past the retention, so no id is issued twice", async () => {
    const { port, rows, insertAt } = await setup();
    const clock = new TestClock(T);
    await insertAt([T - 200 * DAY_MS, T - 150 * DAY_MS, T - 100 * DAY_MS]);
    const [{ max }] = (await rows("SELECT max(id) AS max FROM request_log")) as [{ max: number }];
    expect((await pruneAudit(port, clock, 90)).requests).toBe(2);
    expect(await rows("SELECT id FROM request_log")).toEqual([{ id: max }]);
    await insertAt([T]);
    expect(await rows("SELECT id FROM request_log ORDER BY id")).toEqual([{ id: max }, { id: max + 1 }]);
  });

  test("audit rows, day counts and unauthenticated counts past the retention are pruned; younger ones and the meter stay", async () => {
    const { port, meterAt, rows, insertAt } = await setup();
    const clock = new TestClock(T - 91 * DAY_MS);
    const meter = meterAt(clock);
    const limits = { perMinute: 10_000, perDay: 10_000 };
    const admitAndAnswer = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const a = await meter.admit({ userId: "u", limits, requestId: `r${i}`, params: "" });
        if (a.ok) await meter.finish(a.logId, 200, 1);
        await meter.logUnmetered({ userId: null, requestId: "x", status: 401, code: "UNAUTHORIZED", params: "", durationMs: 0 });
      }
      await meter.flush();
    };
    await admitAndAnswer(3);
    await insertAt(Array(5_497).fill(clock.now())); // more than one delete batch (5,000), 91 days ago
    clock.set(T - 89 * DAY_MS);
    await admitAndAnswer(3);
    clock.set(T);
    await admitAndAnswer(1);
    expect(await pruneAudit(port, clock, 90)).toEqual({ requests: 5_500, days: 1, counts: 1 });
    expect(await rows("SELECT count(*) AS n FROM request_log")).toEqual([{ n: 4 }]);
    expect(await rows("SELECT day, admitted FROM usage_days ORDER BY day")).toEqual([
      { day: T - 89 * DAY_MS - (T % DAY_MS), admitted: 3 },
      { day: T - (T % DAY_MS), admitted: 1 },
    ]);
    expect(await pruneAudit(port, clock, 90)).toEqual({ requests: 0, days: 0, counts: 0 });
  });

  test("rows out of id order by seconds (audit rows written after later ones) are pruned by their time exactly", async () => {
    const { port, rows, insertAt } = await setup();
    const cutoff = T - 90 * DAY_MS;
    // ids ascending, times jittered ±2 s around the cutoff, a long run on each side.
    const times = [
      ...Array.from({ length: 200 }, (_, i) => cutoff - 10 * DAY_MS + i * 60_000),
      cutoff - 2000,
      cutoff + 1500,
      cutoff - 1,
      cutoff,
      cutoff - 500,
      cutoff + 1,
      cutoff - 1999,
      ...Array.from({ length: 200 }, (_, i) => cutoff + 5000 + i * 60_000),
    ];
    await insertAt(times);
    const older = times.filter((ts) => ts < cutoff).length;
    expect(await pruneAudit(port, new TestClock(T), 90)).toMatchObject({ requests: older });
    const left = await rows("SELECT ts FROM request_log ORDER BY id");
    expect(left.map((r) => r.ts)).toEqual(times.filter((ts) => ts >= cutoff));
  });
});

test("after a burst, the WAL is cut back to journal_size_limit once checkpointed", () => {
  const opened = openDatabase(join(mkdtempSync(join(tmpdir(), "gs-retention-")), "r.sqlite"));
  const { sqlite } = opened;
  sqlite.exec("PRAGMA wal_autocheckpoint = 0"); // as in the server, whose checkpoints run in a worker
  sqlite.exec("CREATE TABLE burst (x BLOB)");
  const insert = sqlite.prepare("INSERT INTO burst VALUES (randomblob(4096))");
  for (let i = 0; i < 4000; i++) insert.run(); // ~16 MB of WAL, one commit each
  const wal = `${opened.path}-wal`;
  expect(statSync(wal).size).toBeGreaterThan(12 * 1024 * 1024);
  sqlite.exec("PRAGMA wal_checkpoint(PASSIVE)");
  insert.run(); // the next writer restarts the WAL and truncates it to the limit
  expect(statSync(wal).size).toBeLessThanOrEqual(JOURNAL_SIZE_LIMIT);
});
