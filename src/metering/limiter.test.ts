import { test, expect } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../db/open.ts";
import { TestClock } from "../clock.ts";
import { DatabaseBusyError } from "../../db/errors.ts";
import { createSqliteMeter } from "./meter-sqlite.ts";
import { rateLimitHeaders } from "./headers.ts";

const DEFAULT = { perMinute: 1, perDay: 30 };
const T = Date.parse("2026-11-22T10:00:00Z");
const freshPath = () => join(mkdtempSync(join(tmpdir(), "gs-meter-")), "m.sqlite");

function setup(start = T) {
  const path = freshPath();
  const { sqlite } = openDatabase(path);
  const clock = new TestClock(start);
  let n = 0;
  const limiter = createSqliteMeter(sqlite, clock);
  const admit = (userId = "alice", limits = DEFAULT) =>
    limiter.admit({ userId, limits, requestId: `req-${++n}`, params: { interval: "1d" } });
  const counted = (userId = "alice") =>
    (sqlite.query("SELECT count(*) AS n FROM request_log WHERE user_id = ? AND counted = 1").get(userId) as { n: number }).n;
  return { path, sqlite, clock, limiter, admit, counted };
}

test("the minute window: denied within 60 s, admitted at exactly 60.000 s, audit rows for both", async () => {
  const { clock, admit, sqlite } = setup();
  expect((await admit()).ok).toBe(true);
  clock.tick(13_000);
  const second = await admit();
  expect(second).toMatchObject({
    ok: false,
    code: "RATE_LIMITED",
    retryAfter: 47,
    message: "rate limit exceeded: 1 request/minute. Retry in 47s.",
  });
  clock.set(T + 59_999);
  expect(await admit()).toMatchObject({ ok: false, retryAfter: 1 });
  clock.set(T + 60_000);
  expect((await admit()).ok).toBe(true);
  const rows = sqlite.query("SELECT request_id, ts, status, counted, code, params FROM request_log ORDER BY id").all();
  expect(rows).toEqual([
    { request_id: "req-1", ts: T, status: null, counted: 1, code: null, params: '{"interval":"1d"}' },
    { request_id: "req-2", ts: T + 13_000, status: 429, counted: 0, code: "RATE_LIMITED", params: '{"interval":"1d"}' },
    { request_id: "req-3", ts: T + 59_999, status: 429, counted: 0, code: "RATE_LIMITED", params: '{"interval":"1d"}' },
    { request_id: "req-4", ts: T + 60_000, status: null, counted: 1, code: null, params: '{"interval":"1d"}' },
  ]);
});

test("UTC day rollover: 23:59:59 is over quota, 00:00:00 starts a new day", async () => {
  const { clock, admit } = setup(Date.parse("2026-11-22T23:58:00Z"));
  const limits = { perMinute: 100, perDay: 2 };
  expect((await admit("alice", limits)).ok).toBe(true);
  clock.set("2026-11-22T23:59:30Z");
  expect((await admit("alice", limits)).ok).toBe(true);
  clock.set("2026-11-22T23:59:59Z");
  expect(await admit("alice", limits)).toMatchObject({
    ok: false,
    code: "DAILY_QUOTA_EXCEEDED",
    retryAfter: 1,
    message: "daily quota exceeded: 2 requests/day. Resets at 2026-11-23T00:00:00Z.",
  });
  clock.set("2026-11-23T00:00:00Z");
  const next = await admit("alice", limits);
  expect(next.ok).toBe(true);
  expect(next.state.dayUsed).toBe(1);
  expect(next.state.minuteUsed).toBe(2);
});

test("both windows exhausted is DAILY_QUOTA_EXCEEDED", async () => {
  const { clock, admit } = setup();
  const limits = { perMinute: 1, perDay: 1 };
  expect((await admit("alice", limits)).ok).toBe(true);
  clock.tick(5_000);
  expect(await admit("alice", limits)).toMatchObject({ ok: false, code: "DAILY_QUOTA_EXCEEDED", retryAfter: 14 * 3600 - 5 });
});

test("denied requests are never counted: hammering does not extend the window", async () => {
  const { clock, admit, counted } = setup();
  expect((await admit()).ok).toBe(true);
  for (let i = 0; i < 20; i++) {
    clock.tick(2_000);
    expect((await admit()).ok).toBe(false);
  }
  expect(counted()).toBe(1);
  clock.set(T + 60_000);
  expect((await admit()).ok).toBe(true);
});

test("per-user limits are independent and higher limits admit more", async () => {
  const { admit, counted } = setup();
  const generous = { perMinute: 10, perDay: 1000 };
  const results: boolean[] = [];
  for (let i = 0; i < 12; i++) results.push((await admit("bob", generous)).ok);
  expect(results).toEqual([...Array(10).fill(true), false, false]);
  expect((await admit("alice")).ok).toBe(true);
  expect((await admit("alice")).ok).toBe(false);
  expect(counted("bob")).toBe(10);
  expect(counted("alice")).toBe(1);
});

test("a 5xx refunds the request (row kept, not counted); a 200 keeps it counted", async () => {
  const { clock, admit, limiter, sqlite, counted } = setup();
  const first = await admit();
  expect(first.ok).toBe(true);
  await limiter.finish(first.logId, 500, 12.5);
  expect(sqlite.query("SELECT status, duration_ms, counted FROM request_log WHERE id = ?").get(first.logId)).toEqual({
    status: 500,
    duration_ms: 12.5,
    counted: 0,
  });
  clock.tick(1_000);
  const second = await admit();
  expect(second.ok).toBe(true);
  await limiter.finish(second.logId, 200, 3);
  expect(counted()).toBe(1);
  clock.tick(1_000);
  expect((await admit()).ok).toBe(false);
});

test("peek writes nothing and reports the same state headers would", async () => {
  const { clock, admit, limiter, sqlite } = setup();
  await admit();
  clock.tick(10_000);
  const before = sqlite.query("SELECT count(*) AS n FROM request_log").get();
  const state = await limiter.peek("alice", DEFAULT);
  expect(sqlite.query("SELECT count(*) AS n FROM request_log").get()).toEqual(before);
  expect(state).toMatchObject({ minuteUsed: 1, dayUsed: 1, oldestInWindow: T });
  expect(rateLimitHeaders(state)).toMatchObject({
    "X-RateLimit-Remaining": "0",
    "X-RateLimit-Reset": String(T / 1000 + 60),
    RateLimit: '"minute";r=0;t=50',
  });
});

test("unmetered requests of a known user are logged with status and code but never counted; unauthenticated ones only counted per minute and code", async () => {
  const { limiter, sqlite, admit, clock } = setup();
  expect(
    await limiter.logUnmetered({
      userId: "alice",
      requestId: "r-400",
      status: 400,
      code: "BAD_REQUEST",
      params: { lookback: "5000" },
      durationMs: 0.2,
    }),
  ).toBeUndefined();
  // Queued, not written on the request path; flush() writes it.
  expect(sqlite.query("SELECT count(*) AS n FROM request_log WHERE request_id = 'r-400'").get()).toEqual({ n: 0 });
  await limiter.flush();
  expect(sqlite.query("SELECT user_id, status, counted, code, duration_ms FROM request_log WHERE request_id = 'r-400'").get()).toEqual({
    user_id: "alice",
    status: 400,
    counted: 0,
    code: "BAD_REQUEST",
    duration_ms: 0.2,
  });
  for (let i = 0; i < 3; i++)
    expect(
      await limiter.logUnmetered({
        userId: null,
        requestId: `r-401-${i}`,
        status: 401,
        code: "UNAUTHORIZED",
        params: "token=x",
        durationMs: 0.4,
      }),
    ).toBeUndefined();
  clock.tick(60_000);
  await limiter.logUnmetered({ userId: null, requestId: "r-401-3", status: 401, code: "UNAUTHORIZED", params: "", durationMs: 0.4 });
  await limiter.flush();
  await limiter.flush(); // nothing gathered: nothing written twice
  expect(sqlite.query("SELECT count(*) AS n FROM request_log WHERE user_id IS NULL").get()).toEqual({ n: 0 });
  expect(sqlite.query("SELECT minute, code, count FROM unauthenticated_counts ORDER BY minute").all()).toEqual([
    { minute: T, code: "UNAUTHORIZED", count: 3 },
    { minute: T + 60_000, code: "UNAUTHORIZED", count: 1 },
  ]);
  expect((await admit()).ok).toBe(true);
});

test("a restart (close and reopen the file) keeps the windows", async () => {
  const { path, sqlite, admit } = setup();
  expect((await admit()).ok).toBe(true);
  sqlite.close();
  const reopened = openDatabase(path);
  const limiter = createSqliteMeter(reopened.sqlite, new TestClock(T + 30_000));
  expect(await limiter.admit({ userId: "alice", limits: DEFAULT, requestId: "after-restart", params: {} })).toMatchObject({
    ok: false,
    code: "RATE_LIMITED",
    retryAfter: 30,
  });
  reopened.sqlite.close();
});

test("a database locked beyond busy_timeout gives DatabaseBusyError, leaves no transaction open, and recovers", async () => {
  const { path, sqlite, admit, counted } = setup();
  sqlite.exec("PRAGMA busy_timeout = 20");
  const other = openDatabase(path).sqlite;
  other.exec("BEGIN IMMEDIATE");
  await expect(admit()).rejects.toBeInstanceOf(DatabaseBusyError);
  expect(sqlite.inTransaction).toBe(false);
  other.exec("COMMIT");
  other.close();
  expect((await admit()).ok).toBe(true);
  expect(counted()).toBe(1);
});

test("finish with refund: true refunds a non-5xx too (admitted, then failed with a 4xx)", async () => {
  const { clock, admit, limiter, sqlite, counted } = setup();
  const first = await admit();
  await limiter.finish(first.logId, 404, 2, { refund: true });
  expect(sqlite.query("SELECT status, counted FROM request_log WHERE id = ?").get(first.logId)).toEqual({ status: 404, counted: 0 });
  expect(counted()).toBe(0);
  clock.tick(1_000);
  expect((await admit()).ok).toBe(true);
});
