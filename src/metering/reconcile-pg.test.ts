/**
 * reconcile.ts on a real PostgreSQL: a gone process's open rows refunded from its watermark with
 * the day's count given back, a live one's kept, and two instances starting at once refunding
 * each row once.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { hostname } from "node:os";
import { openPg, type OpenedPg } from "../../db/pg/open.ts";
import { startPostgres, type TestDatabase } from "../../test/support/postgres.ts";
import { TestClock } from "../clock.ts";
import { newBootId } from "./boot.ts";
import { createPgMeter } from "./meter-pg.ts";
import { reconcileUnanswered } from "./reconcile.ts";
import { pgReconcilePort } from "./reconcile-pg.ts";

const LIMITS = { perMinute: 100, perDay: 100 };
const T = Date.parse("2026-11-22T10:00:00Z");
const uuid = "00000000-0000-4000-8000-000000000000";

let pgdb: TestDatabase;
let opened: OpenedPg;
beforeAll(async () => {
  pgdb = await startPostgres();
  opened = await openPg(pgdb.url);
});
afterAll(async () => {
  await opened?.close();
  await pgdb?.stop();
});

test("a gone process's open rows are refunded once, from its watermark, with the day's count; a live one's are kept", async () => {
  const { sql } = opened;
  const clock = new TestClock(T);
  const sleeper = Bun.spawn(["sleep", "30"]);
  const dead = Bun.spawn(["true"]);
  await dead.exited;
  const live = `${hostname()}:${sleeper.pid}:${uuid}`;
  const gone = `${hostname()}:${dead.pid}:${uuid}`;
  try {
    for (const [boot, n] of [
      [live, 2],
      [gone, 3],
    ] as const) {
      const meter = createPgMeter(sql, clock, boot);
      for (let i = 0; i < n; i++) await meter.admit({ userId: "u", limits: LIMITS, requestId: `${boot}-${i}`, params: "" });
    }
    expect(await sql`SELECT count(*)::int AS n FROM boots`).toEqual([{ n: 2 }]);
    // Two instances starting at once: each row is refunded by one of them.
    const port = pgReconcilePort(sql);
    const [a, b] = await Promise.all([reconcileUnanswered(port, newBootId(), clock), reconcileUnanswered(port, newBootId(), clock)]);
    expect(a.refunded + b.refunded).toBe(3);
    const open = await sql`SELECT boot_id, count(*)::int AS n FROM request_log WHERE status IS NULL AND counted = 1 GROUP BY boot_id`;
    expect(open).toEqual([{ boot_id: live, n: 2 }]);
    expect(await sql`SELECT admitted FROM usage_days WHERE user_id = 'u'`).toEqual([{ admitted: 2 }]);
    expect(await sql`SELECT boot_id FROM boots`).toEqual([{ boot_id: live }]);
  } finally {
    sleeper.kill();
  }
});
