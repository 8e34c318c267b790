/**
 * SQLite's write lock held by another process (issue #41 items 3 and 4): bun:sqlite waits for a
 * lock on the event loop, so the meter never lets it. A window a plain read shows full is refused
 * from that read, its 429 row written once the lock is free; an admission waiting for the lock
 * stops when its client goes; an outcome is deferred to the next flush instead of waited for. The
 * holder lets go only when told (or by itself long after), so each case shows its order of events,
 * not a duration.
 */
import { afterEach, expect, test } from "bun:test";
import { openDatabase } from "./open.ts";
import { tempDbPath } from "../../test/support/http/harness.ts";
import { holdWriteLock, type WriteLockHolder } from "../../test/support/write-lock-holder.ts";
import { systemClock } from "../../src/clock.ts";
import { createSqliteMeter } from "../../src/metering/meters.ts";

/** Long enough that "by itself" only means the code under test held up this thread. */
const HOLD_MAX_MS = 15_000;
/** The connection's own busy_timeout outlasts the holder: a statement that let SQLite wait would see it let go by itself. */
const BUSY_TIMEOUT_MS = 60_000;
const ONE = { perMinute: 1, perDay: 30 };

const opened: { close(): void }[] = [];
const holders: WriteLockHolder[] = [];
afterEach(async () => {
  for (const h of holders.splice(0)) await h.release();
  for (const o of opened.splice(0)) o.close();
});

/** A fresh database file and a meter on its own connection, waiting for a lock at most `lockWaitMs`. */
function rig(lockWaitMs: number) {
  const path = tempDbPath();
  const { sqlite } = openDatabase(path, { busyTimeoutMs: BUSY_TIMEOUT_MS });
  opened.push(sqlite);
  const meter = createSqliteMeter(sqlite, systemClock, undefined, { lockWaitMs });
  const rows = (user: string) =>
    sqlite
      .query<{ status: number | null; counted: number; code: string | null; duration: number | null }, [string]>(
        "SELECT status, counted, code, duration_ms AS duration FROM request_log WHERE user_id = ? ORDER BY id",
      )
      .all(user);
  const hold = async () => {
    const h = await holdWriteLock(path, HOLD_MAX_MS);
    holders.push(h);
    return h;
  };
  return { sqlite, meter, rows, hold };
}

test("a full window is refused from a read while another process holds the write lock: 20 × 429, none busy; their rows follow the lock", async () => {
  // 300 ms of waiting allowed: an admit that waited for the lock would end busy, not 429.
  const { meter, rows, hold } = rig(300);
  expect((await meter.admit({ userId: "full", limits: ONE, requestId: "first", params: {} })).ok).toBe(true);
  const holder = await hold();
  const results = await Promise.allSettled(
    Array.from({ length: 20 }, (_, i) => meter.admit({ userId: "full", limits: ONE, requestId: `f${i}`, params: {} })),
  );
  const outcomes = results.map((a) => (a.status === "fulfilled" ? (a.value.ok ? "ok" : a.value.code) : String(a.reason)));
  expect(outcomes).toEqual(Array(20).fill("RATE_LIMITED"));
  for (const a of results) if (a.status === "fulfilled" && !a.value.ok) meter.finishRefused(a.value.logId, 2.5);
  await expect(meter.flush({ noWait: true })).rejects.toThrow(); // still locked: the rows wait
  expect(rows("full")).toHaveLength(1);
  expect(await holder.release()).toBe("on request");
  await meter.flush();
  const written = rows("full");
  expect(written).toHaveLength(21);
  expect(written.slice(1).every((r) => r.status === 429 && r.code === "RATE_LIMITED" && r.counted === 0 && r.duration === 2.5)).toBe(true);
});

test("an admission waiting for the lock stops when its client goes: rejected, nothing written, no transaction left open", async () => {
  const { sqlite, meter, rows, hold } = rig(60_000);
  const holder = await hold();
  const gone = new AbortController();
  const admitting = meter.admit({ userId: "leaver", limits: ONE, requestId: "r1", params: {}, signal: gone.signal });
  let settled = false;
  void admitting.then(
    () => (settled = true),
    () => (settled = true),
  );
  await Bun.sleep(0);
  expect(settled).toBe(false); // waiting for the lock, off this thread's loop
  gone.abort();
  await expect(admitting).rejects.toThrow();
  expect(sqlite.inTransaction).toBe(false);
  expect(await holder.release()).toBe("on request");
  expect(rows("leaver")).toEqual([]);
});

test("an outcome written while another process holds the lock is deferred to flush(), not waited for", async () => {
  const { meter, rows, hold } = rig(2000);
  const admitted = await meter.admit({ userId: "late", limits: ONE, requestId: "r1", params: {} });
  if (!admitted.ok) throw new Error("refused");
  const holder = await hold();
  await meter.finish(admitted.logId, 503, 4);
  // Not written yet (the lock is elsewhere): the row keeps counting until the flush writes the refund.
  expect(rows("late")).toEqual([{ status: null, counted: 1, code: null, duration: null }]);
  expect(await holder.release()).toBe("on request");
  await meter.flush();
  expect(rows("late")).toEqual([{ status: 503, counted: 0, code: null, duration: 4 }]);
});
