/**
 * An answer already in hand (a cached result) is recorded as answered in the admitting transaction
 * (AdmitRequest.answered): its finish writes only the duration, with the next flush; any other
 * outcome is written as before. The same cases on SQLite and PostgreSQL.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { hostname } from "node:os";
import { closeBackends, emptiedBackends, KINDS, query } from "../../test/support/both-databases.ts";
import { TestClock } from "../clock.ts";
import { createPgMeter } from "./meters.ts";
import { createSqliteMeter } from "./meters.ts";
import { newBootId } from "./boot.ts";
import { reconcileUnanswered } from "./reconcile.ts";
import { pgReconcilePort } from "../../db/pg/reconcile-statements.ts";
import { sqliteReconcilePort } from "../../db/sqlite/reconcile-statements.ts";

afterAll(closeBackends);
/** One PostgreSQL database for the file, these tables emptied per case (a copy per case costs 0.1-0.3 s). */
const freshBackend = emptiedBackends(["request_log", "usage_days", "boots"]);

const T = Date.parse("2026-11-22T10:00:00Z");
const LIMITS = { perMinute: 100, perDay: 100 };

interface Row {
  status: number | null;
  counted: number;
  duration: number | null;
}

describe.each(KINDS)("on %s", (kind) => {
  const setup = async () => {
    const b = await freshBackend(kind);
    const clock = new TestClock(T);
    // A process that has exited: its rows are the ones a later start reconciles.
    const gone = Bun.spawn(["true"]);
    await gone.exited;
    const bootId = `${hostname()}:${gone.pid}:00000000-0000-4000-8000-000000000000`;
    const meter = b.kind === "sqlite" ? createSqliteMeter(b.sqlite.sqlite, clock, bootId) : createPgMeter(b.pg.sql, clock, bootId);
    const row = async (id: number): Promise<Row> => {
      const [r] = await query(
        b,
        "SELECT status, counted, duration_ms AS duration FROM request_log WHERE id = $1",
        [id],
        ["status", "counted"],
      );
      return r as unknown as Row;
    };
    const admittedToday = async () => Number((await query(b, "SELECT admitted FROM usage_days WHERE user_id = 'u'"))[0]?.admitted ?? 0);
    const reconcile = () =>
      reconcileUnanswered(b.kind === "sqlite" ? sqliteReconcilePort(b.sqlite.sqlite) : pgReconcilePort(b.pg.sql), newBootId(), clock);
    const admit = async (requestId: string, answered?: number) => {
      const a = await meter.admit({ userId: "u", limits: LIMITS, requestId, params: "lookback=60", answered });
      if (!a.ok) throw new Error("refused");
      return a.logId;
    };
    return { meter, row, admittedToday, reconcile, admit, clock };
  };

  test("the row says 200 and counts from the admitting transaction; finish leaves it and its duration comes with the flush", async () => {
    const { meter, row, admit } = await setup();
    const id = await admit("r1", 200);
    expect(await row(id)).toEqual({ status: 200, counted: 1, duration: null });
    await meter.finish(id, 200, 1.25);
    expect(await row(id)).toEqual({ status: 200, counted: 1, duration: null });
    await meter.flush();
    expect(await row(id)).toEqual({ status: 200, counted: 1, duration: 1.25 });
  });

  test("an answer in hand that still fails (the client went away) is refunded with the day's count, once", async () => {
    const { meter, row, admittedToday, admit } = await setup();
    const id = await admit("r1", 200);
    expect(await admittedToday()).toBe(1);
    await meter.finish(id, 499, 3, { refund: true });
    expect(await row(id)).toEqual({ status: 499, counted: 0, duration: 3 });
    expect(await admittedToday()).toBe(0);
    await meter.flush();
    expect(await row(id)).toEqual({ status: 499, counted: 0, duration: 3 });
  });

  test("a crash leaves an answer in hand charged, and refunds an admitted request without one", async () => {
    const { row, admittedToday, reconcile, admit, clock } = await setup();
    const inHand = await admit("r1", 200);
    const computing = await admit("r2");
    // The process exited without finishing either; the next start reconciles.
    clock.tick(1000);
    expect(await reconcile()).toEqual({ refunded: 1, processes: 1 });
    expect(await row(inHand)).toEqual({ status: 200, counted: 1, duration: null });
    expect((await row(computing)).counted).toBe(0);
    expect(await admittedToday()).toBe(1);
  });

  test("without an answer in hand, finish writes the outcome at once, as before", async () => {
    const { meter, row, admit } = await setup();
    const id = await admit("r1");
    expect(await row(id)).toEqual({ status: null, counted: 1, duration: null });
    await meter.finish(id, 200, 7.5);
    expect(await row(id)).toEqual({ status: 200, counted: 1, duration: 7.5 });
  });
});
