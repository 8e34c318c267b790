/**
 * The PostgreSQL meter against a real PostgreSQL (test/support/postgres.ts). The window cases run
 * against both meters, PostgreSQL and the SQLite one (meter-sqlite.ts), step for step: same answers,
 * same Retry-After, same messages. Then what only a shared server has: exactness under
 * concurrency from separate pools and processes, timeouts and an outage.
 */
import { describe, test, expect, beforeAll, afterAll, beforeEach } from "bun:test";
import { startPostgres, type TestDatabase } from "../../test/support/postgres.ts";
import { openPg, type OpenedPg } from "../../db/pg/open.ts";
import { openDatabase } from "../../db/open.ts";
import { TestClock } from "../clock.ts";
import { createSqliteMeter, sqliteMeterPort } from "./meter-sqlite.ts";
import { createPgMeter, pgMeterPort } from "./meter-pg.ts";
import type { Meter } from "./meter.ts";
import type { Limits } from "./windows.ts";

const T = Date.parse("2026-11-22T10:00:00Z");
const ONE = { perMinute: 1, perDay: 30 };

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
beforeEach(async () => {
  await opened.sql`TRUNCATE request_log, usage_days, unauthenticated_counts`;
});

interface Step {
  at: number | string;
  user?: string;
  limits?: Limits;
  /** Admit (default) or peek. */
  peek?: true;
  expect: Record<string, unknown>;
  /** Finish the admitted request with this status (and refund flag). */
  finish?: [status: number, refund?: boolean];
}

const CASES: [name: string, steps: Step[]][] = [
  [
    "the minute window: denied within 60 s, admitted at exactly 60.000 s",
    [
      { at: T, expect: { ok: true } },
      {
        at: T + 13_000,
        expect: { ok: false, code: "RATE_LIMITED", retryAfter: 47, message: "rate limit exceeded: 1 request/minute. Retry in 47s." },
      },
      { at: T + 59_999, expect: { ok: false, retryAfter: 1 } },
      { at: T + 60_000, expect: { ok: true } },
    ],
  ],
  [
    "UTC day rollover: 23:59:59 is over quota, 00:00:00 starts a new day",
    [
      { at: "2026-11-22T23:58:00Z", limits: { perMinute: 100, perDay: 2 }, expect: { ok: true } },
      { at: "2026-11-22T23:59:30Z", limits: { perMinute: 100, perDay: 2 }, expect: { ok: true } },
      {
        at: "2026-11-22T23:59:59Z",
        limits: { perMinute: 100, perDay: 2 },
        expect: {
          ok: false,
          code: "DAILY_QUOTA_EXCEEDED",
          retryAfter: 1,
          message: "daily quota exceeded: 2 requests/day. Resets at 2026-11-23T00:00:00Z.",
        },
      },
      {
        at: "2026-11-23T00:00:00Z",
        limits: { perMinute: 100, perDay: 2 },
        expect: { ok: true, state: expect.objectContaining({ dayUsed: 1, minuteUsed: 2 }) },
      },
    ],
  ],
  [
    "both windows exhausted is DAILY_QUOTA_EXCEEDED",
    [
      { at: T, limits: { perMinute: 1, perDay: 1 }, expect: { ok: true } },
      {
        at: T + 5_000,
        limits: { perMinute: 1, perDay: 1 },
        expect: { ok: false, code: "DAILY_QUOTA_EXCEEDED", retryAfter: 14 * 3600 - 5 },
      },
    ],
  ],
  [
    "denied requests are never counted: hammering does not extend the window",
    [
      { at: T, expect: { ok: true } },
      ...Array.from({ length: 10 }, (_, i): Step => ({ at: T + 2_000 * (i + 1), expect: { ok: false, code: "RATE_LIMITED" } })),
      { at: T + 60_000, expect: { ok: true } },
    ],
  ],
  [
    "per-user limits are independent",
    [
      ...Array.from({ length: 3 }, (): Step => ({ at: T, user: "bob", limits: { perMinute: 3, perDay: 100 }, expect: { ok: true } })),
      { at: T, user: "bob", limits: { perMinute: 3, perDay: 100 }, expect: { ok: false, code: "RATE_LIMITED" } },
      { at: T, expect: { ok: true } },
      { at: T, expect: { ok: false } },
    ],
  ],
  [
    "a 5xx refunds the request and the day; a 200 keeps it counted",
    [
      { at: T, limits: { perMinute: 1, perDay: 1 }, expect: { ok: true }, finish: [500] },
      {
        at: T + 1_000,
        limits: { perMinute: 1, perDay: 1 },
        expect: { ok: true, state: expect.objectContaining({ dayUsed: 1, minuteUsed: 1 }) },
        finish: [200],
      },
      { at: T + 2_000, limits: { perMinute: 1, perDay: 1 }, expect: { ok: false, code: "DAILY_QUOTA_EXCEEDED" } },
    ],
  ],
  [
    "refund: true refunds a 4xx found after admission",
    [
      { at: T, expect: { ok: true }, finish: [404, true] },
      { at: T + 1_000, expect: { ok: true } },
    ],
  ],
  [
    "a lowered limit waits for the entry that frees the slot, not the oldest",
    [
      ...Array.from({ length: 5 }, (_, i): Step => ({ at: T + i * 1_000, limits: { perMinute: 5, perDay: 100 }, expect: { ok: true } })),
      // 5 in the window, limit now 2: the slot frees when entry 3 (T + 3 s) leaves.
      { at: T + 10_000, limits: { perMinute: 2, perDay: 100 }, expect: { ok: false, code: "RATE_LIMITED", retryAfter: 53 } },
    ],
  ],
  [
    "peek reports the state without writing",
    [
      { at: T, expect: { ok: true } },
      { at: T + 10_000, peek: true, expect: { minuteUsed: 1, dayUsed: 1, oldestInWindow: T } },
      { at: T + 10_000, peek: true, expect: { minuteUsed: 1, dayUsed: 1 } },
      { at: T + 60_000, expect: { ok: true, state: expect.objectContaining({ minuteUsed: 1, dayUsed: 2 }) } },
    ],
  ],
];

/** Runs the steps against one meter; returns what each step answered. */
async function play(limiter: Meter, clock: TestClock, steps: Step[]): Promise<unknown[]> {
  const answers: unknown[] = [];
  let n = 0;
  for (const s of steps) {
    clock.set(s.at);
    const user = s.user ?? "alice";
    const limits = s.limits ?? ONE;
    if (s.peek) {
      answers.push(await limiter.peek(user, limits));
      continue;
    }
    const r = await limiter.admit({ userId: user, limits, requestId: `req-${++n}`, params: { interval: "1d" } });
    expect(r).toMatchObject(s.expect);
    if (s.finish) await limiter.finish(r.logId, s.finish[0], 1.5, { refund: s.finish[1] });
    answers.push({ ...r, logId: undefined });
  }
  return answers;
}

function sqliteMeter(clock: TestClock): Meter {
  return createSqliteMeter(openDatabase(":memory:").sqlite, clock);
}

describe("window cases, PostgreSQL and SQLite side by side", () => {
  for (const [name, steps] of CASES) {
    test(name, async () => {
      const pgClock = new TestClock(T);
      const pgAnswers = await play(createPgMeter(opened.sql, pgClock), pgClock, steps);
      for (const [i, s] of steps.entries()) if (s.peek) expect(pgAnswers[i]).toMatchObject(s.expect);
      const liteClock = new TestClock(T);
      expect(pgAnswers).toEqual(await play(sqliteMeter(liteClock), liteClock, steps));
    });
  }
});

describe.each(["sqlite", "postgres"] as const)("the meter port on %s", (kind) => {
  test("a refund written twice (a retry from flush) gives the day's count back once, on the row's own UTC day", async () => {
    const clock = new TestClock(T);
    const lite = openDatabase(":memory:").sqlite;
    const port = kind === "sqlite" ? sqliteMeterPort(lite, clock, "b") : pgMeterPort(opened.sql, clock, "b");
    const admit = async () =>
      (await port.admit({ userId: "r", limits: ONE, requestId: "x", params: {} }, "", () => ({ ok: true }) as never)).logId;
    const first = await admit();
    clock.set(T + 86_400_000);
    await admit();
    for (let i = 0; i < 2; i++) await port.finish({ logId: first, status: 500, durationMs: 1, refund: true }, true);
    const q = "SELECT day, admitted FROM usage_days WHERE user_id = 'r' ORDER BY day";
    const rows = kind === "sqlite" ? lite.query(q).all() : await opened.sql.unsafe(q);
    expect(rows.map((r: { day: number; admitted: number }) => [Number(r.day), Number(r.admitted)])).toEqual([
      [T - (T % 86_400_000), 0],
      [T - (T % 86_400_000) + 86_400_000, 1],
    ]);
  });
});

describe("PostgreSQL meter", () => {
  test("the audit rows: admitted counted with the boot id, denied 429, finished with status and duration, credentials redacted", async () => {
    const clock = new TestClock(T);
    const limiter = createPgMeter(opened.sql, clock, "host:1:boot");
    const a = await limiter.admit({ userId: "alice", limits: ONE, requestId: "r1", params: "interval=1d&token=secret" });
    await limiter.finish(a.logId, 200, 3.25);
    clock.tick(1_000);
    await limiter.admit({ userId: "alice", limits: ONE, requestId: "r2", params: { interval: "1d" } });
    // A known user's 400 waits in the audit queue, as on SQLite: nothing is written on the request path.
    const queued = await limiter.logUnmetered({
      userId: "alice",
      requestId: "r3",
      status: 400,
      code: "BAD_REQUEST",
      params: {},
      durationMs: 0.2,
    });
    expect(queued).toBeUndefined();
    const [{ before }] = await opened.sql`SELECT count(*)::int AS before FROM request_log WHERE request_id = 'r3'`;
    expect(before).toBe(0);
    await limiter.flush();
    const rows =
      await opened.sql`SELECT id, request_id, ts::float8 AS ts, status, duration_ms, counted, code, params, boot_id FROM request_log ORDER BY id`;
    expect(rows.map((r: Record<string, unknown>) => ({ ...r, id: Number(r.id) }))).toEqual([
      {
        id: a.logId,
        request_id: "r1",
        ts: T,
        status: 200,
        duration_ms: 3.25,
        counted: 1,
        code: null,
        params: "interval=1d&token=[redacted]",
        boot_id: "host:1:boot",
      },
      {
        id: expect.any(Number),
        request_id: "r2",
        ts: T + 1_000,
        status: 429,
        duration_ms: null,
        counted: 0,
        code: "RATE_LIMITED",
        params: '{"interval":"1d"}',
        boot_id: null,
      },
      {
        id: expect.any(Number),
        request_id: "r3",
        ts: T + 1_000,
        status: 400,
        duration_ms: 0.2,
        counted: 0,
        code: "BAD_REQUEST",
        params: "{}",
        boot_id: null,
      },
    ]);
  });

  test("unauthenticated requests are only counted per minute and code, written by flush", async () => {
    const clock = new TestClock(T);
    const limiter = createPgMeter(opened.sql, clock);
    for (let i = 0; i < 3; i++)
      expect(
        await limiter.logUnmetered({ userId: null, requestId: `x${i}`, status: 401, code: "UNAUTHORIZED", params: "", durationMs: 0 }),
      ).toBeUndefined();
    clock.tick(60_000);
    await limiter.logUnmetered({ userId: null, requestId: "y", status: 401, code: "UNAUTHORIZED", params: "", durationMs: 0 });
    await limiter.flush();
    await limiter.flush();
    const rows = await opened.sql`SELECT minute::float8 AS minute, code, count FROM unauthenticated_counts ORDER BY minute`;
    expect([...rows]).toEqual([
      { minute: T, code: "UNAUTHORIZED", count: 3 },
      { minute: T + 60_000, code: "UNAUTHORIZED", count: 1 },
    ]);
    const [{ n }] = await opened.sql`SELECT count(*)::int AS n FROM request_log`;
    expect(n).toBe(0);
  });
});
