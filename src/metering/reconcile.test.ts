import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../db/open.ts";
import { TestClock } from "../clock.ts";
import { bootIsGone, newBootId } from "./boot.ts";
import { createSqliteMeter } from "./meter-sqlite.ts";
import { reconcileUnanswered, STALE_OPEN_MS } from "./reconcile.ts";
import { sqliteReconcilePort } from "./reconcile-sqlite.ts";

const LIMITS = { perMinute: 100, perDay: 100 };
const T = Date.parse("2026-11-22T10:00:00Z");
const uuid = "00000000-0000-4000-8000-000000000000";

function setup() {
  const { sqlite } = openDatabase(join(mkdtempSync(join(tmpdir(), "gs-reconcile-")), "r.sqlite"));
  const clock = new TestClock(T);
  const admitAs = (bootId: string, n: number) => {
    const limiter = createSqliteMeter(sqlite, clock, bootId);
    for (let i = 0; i < n; i++) limiter.admit({ userId: "u", limits: LIMITS, requestId: `${bootId}-${i}`, params: "" });
  };
  const open = (bootId: string | null) =>
    (
      sqlite.query("SELECT count(*) AS n FROM request_log WHERE boot_id IS ? AND status IS NULL AND counted = 1").get(bootId) as {
        n: number;
      }
    ).n;
  const day = () => (sqlite.query("SELECT admitted FROM usage_days WHERE user_id = 'u'").get() as { admitted: number }).admitted;
  const reconcile = (self: string) => reconcileUnanswered(sqliteReconcilePort(sqlite), self, clock);
  return { sqlite, clock, admitAs, open, day, reconcile };
}

test("a dead process's open rows are refunded with the day's count; a live process's, and this process's own, are kept", async () => {
  const { clock, admitAs, open, day, reconcile } = setup();
  const sleeper = Bun.spawn(["sleep", "30"]);
  const dead = Bun.spawn(["true"]);
  await dead.exited;
  const self = newBootId();
  const liveOther = `${hostname()}:${sleeper.pid}:${uuid}`;
  const deadOther = `${hostname()}:${dead.pid}:${uuid}`;
  try {
    admitAs(self, 1);
    admitAs(liveOther, 2);
    admitAs(deadOther, 3);
    expect(day()).toBe(6);
    clock.tick(1000);
    expect(await reconcile(self)).toEqual({ refunded: 3, processes: 1 });
    expect([open(self), open(liveOther), open(deadOther), day()]).toEqual([1, 2, 0, 3]);
    expect(await reconcile(self)).toEqual({ refunded: 0, processes: 0 });
  } finally {
    sleeper.kill();
  }
});

test("rows that cannot be checked (another host, no boot id, an id that is not ours) are refunded only past the age bound", async () => {
  const { sqlite, clock, admitAs, open, day, reconcile } = setup();
  const self = newBootId();
  admitAs(`elsewhere:1:${uuid}`, 2);
  admitAs("not-a-boot-id", 1);
  // Rows from before boot ids, as the migration to watermarks leaves them (its boots row '').
  sqlite.exec("UPDATE request_log SET boot_id = NULL WHERE boot_id = 'not-a-boot-id'");
  sqlite.exec("UPDATE boots SET boot_id = '', seen_at = 0 WHERE boot_id = 'not-a-boot-id'");
  clock.tick(STALE_OPEN_MS - 1);
  expect((await reconcile(self)).refunded).toBe(0);
  clock.tick(2);
  expect(await reconcile(self)).toEqual({ refunded: 3, processes: 2 });
  expect([open(`elsewhere:1:${uuid}`), open(null), day()]).toEqual([0, 0, 0]);
  // Nothing of either stays open, and neither moved its watermark within the age bound: both forgotten.
  expect(sqlite.query("SELECT boot_id FROM boots").all()).toEqual([]);
});

test("each process's watermark: the first admitted row registers it, flush moves it to the oldest unsettled row, then past the last", async () => {
  const { sqlite, clock } = setup();
  const self = newBootId();
  const meter = createSqliteMeter(sqlite, clock, self);
  const watermark = () => sqlite.query("SELECT low_id AS low FROM boots WHERE boot_id = ?").get(self) as { low: number } | null;
  expect(watermark()).toBeNull();
  const ids: number[] = [];
  for (let i = 0; i < 3; i++) {
    const a = await meter.admit({ userId: "u", limits: LIMITS, requestId: `w${i}`, params: "" });
    if (a.ok) ids.push(a.logId);
  }
  expect(watermark()).toEqual({ low: ids[0]! });
  await meter.finish(ids[0]!, 200, 1);
  await meter.finish(ids[2]!, 200, 1);
  clock.tick(1000);
  await meter.flush();
  expect(watermark()).toEqual({ low: ids[1]! }); // the middle one is still in flight
  await meter.finish(ids[1]!, 200, 1);
  await meter.flush();
  expect(watermark()).toEqual({ low: ids[1]! }); // at most once a second
  clock.tick(1000);
  await meter.flush();
  expect(watermark()).toEqual({ low: ids[2]! + 1 });
});

test("a gone process's rows below its watermark are settled by definition: only those from it are read", async () => {
  const { sqlite, clock, reconcile } = setup();
  const dead = Bun.spawn(["true"]);
  await dead.exited;
  const deadBoot = `${hostname()}:${dead.pid}:${uuid}`;
  const meter = createSqliteMeter(sqlite, clock, deadBoot);
  for (let i = 0; i < 4; i++) await meter.admit({ userId: "u", limits: LIMITS, requestId: `g${i}`, params: "" });
  const ids = (sqlite.query("SELECT id FROM request_log ORDER BY id").all() as { id: number }[]).map((r) => r.id);
  sqlite.prepare("UPDATE boots SET low_id = ? WHERE boot_id = ?").run(ids[2]!, deadBoot);
  expect(await reconcile(newBootId())).toEqual({ refunded: 2, processes: 1 });
  expect(sqlite.query("SELECT count(*) AS n FROM boots").get()).toEqual({ n: 0 });
});

test("a boot id with our pid but another id is a previous life of this pid (a restarted container): gone", () => {
  const self = newBootId();
  const [host, pid] = self.split(":");
  expect(bootIsGone(`${host}:${pid}:${uuid}`, self)).toBe(true);
  expect(bootIsGone(self, self)).toBe(false);
  expect(bootIsGone(`${host}:1:${uuid}`, self)).toBe(false); // pid 1 always runs
});
