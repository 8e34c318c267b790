/**
 * Issue #41 item 4: while another process held BEGIN IMMEDIATE (a CLI import, a backup, another
 * worker's long write), one live request — a first-time user's, or a known user's whose minute was
 * used — held /health for 1.7-2.0 s: its admission let SQLite wait for the lock on the event loop.
 * A real server, a real second process holding the write lock until told. The server's connection
 * is given a busy_timeout longer than the holder holds, so any statement on the request path that
 * let SQLite wait would outlast the holder, and the holder would say it let go by itself. What is
 * asserted is the order of events while the lock is held, not a duration.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { body, sampleDb, startHarness, type Harness } from "../../test/support/http/harness.ts";
import { onAdmit } from "../../test/support/http/on-admit.ts";
import { holdWriteLock } from "../../test/support/write-lock-holder.ts";

const LIVE = "/v1/graph-stats/chart?lookback=60&graph_method=mst";
const HOLD_MAX_MS = 15_000;

const path = sampleDb();
let h: Harness;
beforeAll(async () => {
  // An admission waits for the lock (off the event loop) up to --db-statement-timeout: longer than the holder holds.
  h = await startHarness({ dbStatementTimeout: "30s" }, { dbPath: path });
  h.server.opened.sqlite.exec("PRAGMA busy_timeout = 60000");
});
afterAll(() => h.stop());

function auditRows(user: string) {
  return h.server.opened.sqlite
    .query<{ status: number | null; counted: number; code: string | null }, [string]>(
      "SELECT status, counted, code FROM request_log WHERE user_id = ? ORDER BY id",
    )
    .all(user);
}

test("a known user whose minute is used is refused from a read: 429 and /health both answered while the lock is held", async () => {
  const token = await h.token("minute-used");
  expect((await h.get(LIVE, { token })).status).toBe(200);
  const holder = await holdWriteLock(path, HOLD_MAX_MS);
  const refused = await h.get(LIVE, { token });
  const health = await h.get("/health");
  expect(await holder.release()).toBe("on request");
  expect([refused.status, (await body(refused)).errors[0].code, refused.headers.get("x-ratelimit-remaining")]).toEqual([
    429,
    "RATE_LIMITED",
    "0",
  ]);
  expect(refused.headers.get("retry-after")).toBe("60");
  expect(health.status).toBe(200);
  // The 429's row waited with the audit queue and is written once the lock is gone (the next flush).
  for (let i = 0; i < 200 && auditRows("minute-used").length < 2; i++) await Bun.sleep(25);
  expect(auditRows("minute-used")).toEqual([
    { status: 200, counted: 1, code: null },
    { status: 429, counted: 0, code: "RATE_LIMITED" },
  ]);
});

test("a first-time user's admission waits for the lock off the event loop: /health is answered meanwhile, the request once the lock is free", async () => {
  const token = await h.token("first-timer");
  const events: string[] = [];
  const admitting = onAdmit(h, "first-timer");
  const holder = await holdWriteLock(path, HOLD_MAX_MS);
  const live = h.get(LIVE, { token }).then((res) => {
    events.push(`live ${res.status}`);
    return res;
  });
  await admitting;
  events.push(`health ${(await h.get("/health")).status}`);
  // The lock is let go only once asked; the answer may then arrive before the holder says it let go.
  events.push("release asked");
  const released = await holder.release();
  const res = await live;
  expect(events).toEqual(["health 200", "release asked", "live 200"]);
  expect(released).toBe("on request");
  expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
  expect(auditRows("first-timer")).toEqual([{ status: 200, counted: 1, code: null }]);
});
