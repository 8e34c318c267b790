import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../db/open.ts";
import { TestClock } from "../clock.ts";
import { bootIsGone, newBootId } from "./boot.ts";
import { createSqliteMeter } from "./meter-sqlite.ts";
import { reconcileUnanswered, STALE_OPEN_MS } from "./reconcile.ts";

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
  return { sqlite, clock, admitAs, open, day };
}

test("a dead process's open rows are refunded with the day's count; a live process's, and this process's own, are kept", async () => {
  const { sqlite, clock, admitAs, open, day } = setup();
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
    expect(reconcileUnanswered(sqlite, self, clock)).toEqual({ refunded: 3, processes: 1 });
    expect([open(self), open(liveOther), open(deadOther), day()]).toEqual([1, 2, 0, 3]);
    expect(reconcileUnanswered(sqlite, self, clock)).toEqual({ refunded: 0, processes: 0 });
  } finally {
    sleeper.kill();
  }
});

test("rows that cannot be checked (another host, no boot id, an id that is not ours) are refunded only past the age bound", () => {
  const { sqlite, clock, admitAs, open, day } = setup();
  const self = newBootId();
  admitAs(`elsewhere:1:${uuid}`, 2);
  admitAs("not-a-boot-id", 1);
  sqlite.exec("UPDATE request_log SET boot_id = NULL WHERE boot_id = 'not-a-boot-id'");
  clock.tick(STALE_OPEN_MS - 1);
  expect(reconcileUnanswered(sqlite, self, clock).refunded).toBe(0);
  clock.tick(2);
  expect(reconcileUnanswered(sqlite, self, clock)).toEqual({ refunded: 3, processes: 2 });
  expect([open(`elsewhere:1:${uuid}`), open(null), day()]).toEqual([0, 0, 0]);
});

test("a boot id with our pid but another id is a previous life of this pid (a restarted container): gone", () => {
  const self = newBootId();
  const [host, pid] = self.split(":");
  expect(bootIsGone(`${host}:${pid}:${uuid}`, self)).toBe(true);
  expect(bootIsGone(self, self)).toBe(false);
  expect(bootIsGone(`${host}:1:${uuid}`, self)).toBe(false); // pid 1 always runs
});
