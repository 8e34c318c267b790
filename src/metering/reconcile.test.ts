/**
 * reconcile.ts's contract, the same cases on SQLite and PostgreSQL: a gone process's open rows
 * refunded from its watermark with the day's count given back, once even when two instances start
 * together; a live process's and this process's own kept; rows that cannot be checked refunded only
 * past the age bound; each process's watermark as the meter moves it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { hostname } from "node:os";
import { closeBackends, emptiedBackends, KINDS, query } from "../../test/support/both-databases.ts";
import { TestClock } from "../clock.ts";
import { bootIsGone, newBootId } from "./boot.ts";
import { createPgMeter } from "./meters.ts";
import { createSqliteMeter } from "./meters.ts";
import { reconcileUnanswered, STALE_OPEN_MS } from "./reconcile.ts";
import { pgReconcilePort } from "../../db/pg/reconcile-statements.ts";
import { sqliteReconcilePort } from "../../db/sqlite/reconcile-statements.ts";

afterAll(closeBackends);
const freshBackend = emptiedBackends(["request_log", "usage_days", "boots"]);

const LIMITS = { perMinute: 100, perDay: 100 };
const T = Date.parse("2026-11-22T10:00:00Z");
const uuid = "00000000-0000-4000-8000-000000000000";

/** The boot id of a process that has exited (a pid no longer running on this host). */
async function goneBoot(): Promise<string> {
  const dead = Bun.spawn(["true"]);
  await dead.exited;
  return `${hostname()}:${dead.pid}:${uuid}`;
}

describe.each(KINDS)("on %s", (kind) => {
  const setup = async () => {
    const b = await freshBackend(kind);
    const clock = new TestClock(T);
    const meter = (bootId: string) =>
      b.kind === "sqlite" ? createSqliteMeter(b.sqlite.sqlite, clock, bootId) : createPgMeter(b.pg.sql, clock, bootId);
    const admitAs = async (bootId: string, n: number) => {
      const m = meter(bootId);
      const ids: number[] = [];
      for (let i = 0; i < n; i++) ids.push((await m.admit({ userId: "u", limits: LIMITS, requestId: `${bootId}-${i}`, params: "" })).logId);
      return ids;
    };
    const rows = (q: string, args: (string | number | null)[] = [], numeric: readonly string[] = []) => query(b, q, args, numeric);
    /** Admitted rows of that boot id (null: none) still open. */
    const open = async (bootId: string | null) =>
      (
        await rows(
          "SELECT count(*) AS n FROM request_log WHERE boot_id IS NOT DISTINCT FROM $1 AND status IS NULL AND counted = 1",
          [bootId],
          ["n"],
        )
      )[0]!.n;
    const day = async () => (await rows("SELECT admitted FROM usage_days WHERE user_id = 'u'"))[0]!.admitted;
    const boots = async () => (await rows("SELECT boot_id FROM boots")).map((r) => String(r.boot_id)).sort();
    const port = () => (b.kind === "sqlite" ? sqliteReconcilePort(b.sqlite.sqlite) : pgReconcilePort(b.pg.sql));
    const reconcile = (self: string) => reconcileUnanswered(port(), self, clock);
    return { clock, meter, admitAs, rows, open, day, boots, reconcile };
  };

  test("a gone process's open rows are refunded once with the day's count, by one of two instances starting together; a live process's, and this one's own, are kept", async () => {
    const { clock, admitAs, open, day, boots, reconcile } = await setup();
    const sleeper = Bun.spawn(["sleep", "30"]);
    const self = newBootId();
    const live = `${hostname()}:${sleeper.pid}:${uuid}`;
    const gone = await goneBoot();
    try {
      await admitAs(self, 1);
      await admitAs(live, 2);
      await admitAs(gone, 3);
      expect(await day()).toBe(6);
      expect((await boots()).length).toBe(3);
      clock.tick(1000);
      const [a, b] = await Promise.all([reconcile(self), reconcile(self)]);
      expect([a.refunded + b.refunded, a.processes + b.processes]).toEqual([3, 1]);
      expect([await open(self), await open(live), await open(gone), await day()]).toEqual([1, 2, 0, 3]);
      expect(await reconcile(self)).toEqual({ refunded: 0, processes: 0 });
      // The gone process's watermark is forgotten once nothing of it stays open.
      expect(await boots()).toEqual([live, self].sort());
    } finally {
      sleeper.kill();
    }
  });

  test("rows that cannot be checked (another host, no boot id) are refunded only past the age bound", async () => {
    const { rows, clock, admitAs, open, day, boots, reconcile } = await setup();
    const self = newBootId();
    await admitAs(`elsewhere:1:${uuid}`, 2);
    await admitAs("not-a-boot-id", 1);
    // Rows from before boot ids, as the migration to watermarks leaves them (its boots row '').
    await rows("UPDATE request_log SET boot_id = NULL WHERE boot_id = 'not-a-boot-id'");
    await rows("UPDATE boots SET boot_id = '', seen_at = 0 WHERE boot_id = 'not-a-boot-id'");
    clock.tick(STALE_OPEN_MS - 1);
    expect((await reconcile(self)).refunded).toBe(0);
    clock.tick(2);
    expect(await reconcile(self)).toEqual({ refunded: 3, processes: 2 });
    expect([await open(`elsewhere:1:${uuid}`), await open(null), await day()]).toEqual([0, 0, 0]);
    // Nothing of either stays open, and neither moved its watermark within the age bound: both forgotten.
    expect(await boots()).toEqual([]);
  });

  test("each process's watermark: the first admitted row registers it, flush moves it to the oldest unsettled row, then past the last", async () => {
    const { rows, clock, meter } = await setup();
    const self = newBootId();
    const m = meter(self);
    const watermark = async () => (await rows("SELECT low_id AS low FROM boots WHERE boot_id = $1", [self], ["low"]))[0] ?? null;
    expect(await watermark()).toBeNull();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const a = await m.admit({ userId: "u", limits: LIMITS, requestId: `w${i}`, params: "" });
      if (a.ok) ids.push(a.logId);
    }
    expect(await watermark()).toEqual({ low: ids[0]! });
    await m.finish(ids[0]!, 200, 1);
    await m.finish(ids[2]!, 200, 1);
    clock.tick(1000);
    await m.flush();
    expect(await watermark()).toEqual({ low: ids[1]! }); // the middle one is still in flight
    await m.finish(ids[1]!, 200, 1);
    await m.flush();
    expect(await watermark()).toEqual({ low: ids[1]! }); // at most once a second
    clock.tick(1000);
    await m.flush();
    expect(await watermark()).toEqual({ low: ids[2]! + 1 });
  });

  test("a gone process's rows below its watermark are settled by definition: only those from it are read", async () => {
    const { rows, admitAs, boots, reconcile } = await setup();
    const gone = await goneBoot();
    const ids = await admitAs(gone, 4);
    await rows("UPDATE boots SET low_id = $1 WHERE boot_id = $2", [ids[2]!, gone]);
    expect(await reconcile(newBootId())).toEqual({ refunded: 2, processes: 1 });
    expect(await boots()).toEqual([]);
  });
});

test("a boot id with our pid but another id is a previous life of this pid (a restarted container): gone", () => {
  const self = newBootId();
  const [host, pid] = self.split(":");
  expect(bootIsGone(`${host}:${pid}:${uuid}`, self)).toBe(true);
  expect(bootIsGone(self, self)).toBe(false);
  expect(bootIsGone(`${host}:1:${uuid}`, self)).toBe(false); // pid 1 always runs
});
