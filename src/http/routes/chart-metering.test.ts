import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sqliteAuthStoreOf } from "../../auth/index.ts";
import type { ChartService } from "../../compute/chart-service.ts";
import { body, startHarness, type Harness } from "../../../test/support/http/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({}, { start: "2026-11-22T10:00:00Z" });
});
afterAll(() => h.stop());

const PATH = "/v1/graph-stats/chart?lookback=20";
const nowS = () => h.clock.now() / 1000;

function rl(res: Response) {
  const g = (n: string) => res.headers.get(n);
  return {
    limit: g("x-ratelimit-limit"),
    remaining: g("x-ratelimit-remaining"),
    dailyLimit: g("x-ratelimit-daily-limit"),
    dailyRemaining: g("x-ratelimit-daily-remaining"),
    reset: Number(g("x-ratelimit-reset")),
    retryAfter: g("retry-after"),
    policy: g("ratelimit-policy"),
    ratelimit: g("ratelimit"),
  };
}

describe("the per-minute window (sliding log, 1 request/minute)", () => {
  test("first call 200 with all headers; second in the same minute 429 RATE_LIMITED with consistent Retry-After", async () => {
    const token = await h.token("alice");
    const first = await h.get(PATH, { token });
    expect(first.status).toBe(200);
    const b1 = await body(first);
    expect(b1.success).toBe(true);
    expect(Array.isArray(b1.data.stocks)).toBe(true);
    expect(b1.data.stocks.length).toBe(50);
    expect(first.headers.get("cache-control")).toBe("no-store");
    const h1 = rl(first);
    expect(h1).toMatchObject({ limit: "1", remaining: "0", dailyLimit: "30", dailyRemaining: "29" });
    expect(h1.reset).toBe(Math.ceil(nowS() + 60));
    expect(h1.retryAfter).toBeNull();
    expect(h1.policy).toBe('"minute";q=1;w=60, "day";q=30;w=86400');
    expect(h1.ratelimit).toBe('"minute";r=0;t=60');

    h.clock.tick(13_000);
    const second = await h.get(PATH, { token });
    expect(second.status).toBe(429);
    const b2 = await body(second);
    expect(b2).toMatchObject({ success: false, data: null, errors: [{ code: "RATE_LIMITED" }] });
    const h2 = rl(second);
    expect(h2.retryAfter).toBe("47");
    expect(b2.errors[0].message).toBe("rate limit exceeded: 1 request/minute. Retry in 47s.");
    expect(Math.abs(h2.reset - (nowS() + Number(h2.retryAfter)))).toBeLessThanOrEqual(1);
    expect(h2).toMatchObject({ limit: "1", remaining: "0", dailyRemaining: "29" });
  });

  test("59.999 s after the admitted request is refused, 60.000 s is admitted", async () => {
    const token = await h.token("bob");
    expect((await h.get(PATH, { token })).status).toBe(200);
    h.clock.tick(59_999);
    const early = await h.get(PATH, { token });
    expect(early.status).toBe(429);
    expect(rl(early).retryAfter).toBe("1");
    h.clock.tick(1);
    expect((await h.get(PATH, { token })).status).toBe(200);
  });

  test("two users' windows are independent", async () => {
    const a = await h.token("carol");
    const b = await h.token("dave");
    expect((await h.get(PATH, { token: a })).status).toBe(200);
    expect((await h.get(PATH, { token: b })).status).toBe(200);
    expect((await h.get(PATH, { token: a })).status).toBe(429);
  });
});

describe("validation comes before metering", () => {
  test("400 BAD_REQUEST lists every problem, carries the headers and does not count", async () => {
    const token = await h.token("erin");
    const res = await h.get("/v1/graph-stats/chart?lookback=5000&periods=0&bogus=1", { token });
    expect(res.status).toBe(400);
    const b = await body(res);
    expect(b.errors.length).toBe(3);
    expect(b.errors.every((e: { code: string }) => e.code === "BAD_REQUEST")).toBe(true);
    expect(b.errors.map((e: { message: string }) => e.message).join("\n")).toContain(
      "lookback must be an integer from 2 to 1000, got '5000'",
    );
    expect(rl(res)).toMatchObject({ limit: "1", remaining: "1", dailyRemaining: "30" });
    expect((await h.get(PATH, { token })).status).toBe(200);
  });

  test("a query string over 8 KiB is refused with 400", async () => {
    const token = await h.token("frank");
    const res = await h.get(`/v1/graph-stats/chart?symbols=${"A".repeat(9000)}`, { token });
    expect(res.status).toBe(400);
    expect((await body(res)).errors[0].message).toContain("8192");
  });

  test("unknown universe → 404 and not counted; too much history → 400 and refunded", async () => {
    const token = await h.token("gina");
    const nf = await h.get("/v1/graph-stats/chart?universe=nope", { token });
    expect(nf.status).toBe(404);
    expect((await body(nf)).errors[0].message).toContain("known universes: sample");
    const tooLong = await h.get("/v1/graph-stats/chart?lookback=1000&periods=250", { token });
    expect(tooLong.status).toBe(400);
    expect((await body(tooLong)).errors[0].message).toMatch(/\d+ bars/);
    expect(rl(tooLong)).toMatchObject({ remaining: "1", dailyRemaining: "30" });
    expect((await h.get(PATH, { token })).status).toBe(200);
  });
});

describe("the UTC-day quota", () => {
  test("the 31st admitted call of the day gets DAILY_QUOTA_EXCEEDED; it resets at 00:00:00 UTC", async () => {
    h.clock.set("2026-11-22T20:00:00Z");
    const token = await h.token("quota-user");
    for (let i = 0; i < 30; i++) {
      const res = await h.get(PATH, { token });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-daily-remaining")).toBe(String(29 - i));
      h.clock.tick(60_000);
    }
    const denied = await h.get(PATH, { token });
    expect(denied.status).toBe(429);
    const b = await body(denied);
    expect(b.errors[0].code).toBe("DAILY_QUOTA_EXCEEDED");
    expect(b.errors[0].message).toBe("daily quota exceeded: 30 requests/day. Resets at 2026-11-23T00:00:00Z.");
    const retry = Number(denied.headers.get("retry-after"));
    expect(retry).toBe(Math.ceil((Date.parse("2026-11-23T00:00:00Z") - h.clock.now()) / 1000));
    h.clock.set("2026-11-22T23:59:59Z");
    expect((await h.get(PATH, { token })).status).toBe(429);
    h.clock.set("2026-11-23T00:00:00Z");
    const next = await h.get(PATH, { token });
    expect(next.status).toBe(200);
    expect(next.headers.get("x-ratelimit-daily-remaining")).toBe("29");
  });

  test("both windows exhausted → DAILY_QUOTA_EXCEEDED (waiting a minute would not help)", async () => {
    h.clock.set("2026-11-24T12:00:00Z");
    const auth = sqliteAuthStoreOf(h.server.opened.sqlite);
    await auth.createUser({ id: "tiny", now: h.clock.now() });
    await auth.setLimits("tiny", { perMinute: 1, perDay: 1 });
    const token = await h.token("tiny");
    expect((await h.get(PATH, { token })).status).toBe(200);
    const res = await h.get(PATH, { token });
    expect(res.status).toBe(429);
    expect((await body(res)).errors[0]).toEqual({
      code: "DAILY_QUOTA_EXCEEDED",
      message: "daily quota exceeded: 1 request/day. Resets at 2026-11-25T00:00:00Z.",
    });
  });

  test("a 429 is not counted against the daily quota", async () => {
    h.clock.set("2026-11-25T08:00:00Z");
    const token = await h.token("henry");
    expect((await h.get(PATH, { token })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await h.get(PATH, { token })).status).toBe(429);
    h.clock.tick(60_000);
    const res = await h.get(PATH, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-daily-remaining")).toBe("28");
  });

  test("per-user overrides raise the limits and the headers say so", async () => {
    h.clock.set("2026-11-26T08:00:00Z");
    const auth = sqliteAuthStoreOf(h.server.opened.sqlite);
    await auth.createUser({ id: "vip", now: h.clock.now() });
    await auth.setLimits("vip", { perMinute: 3, perDay: 100 });
    const token = await h.token("vip");
    for (let i = 0; i < 3; i++) expect((await h.get(PATH, { token })).status).toBe(200);
    const res = await h.get(PATH, { token });
    expect(res.status).toBe(429);
    expect((await body(res)).errors[0].message).toMatch(/^rate limit exceeded: 3 requests\/minute\. Retry in \d+s\.$/);
    expect(res.headers.get("ratelimit-policy")).toBe('"minute";q=3;w=60, "day";q=100;w=86400');
  });
});

describe("refunds", () => {
  test("an admitted request that fails with 500 does not count, and the response names only the request id", async () => {
    const failing = await startHarness(
      {},
      {
        dbPath: h.config.db,
        override: {
          // The real service resolves, then the computation fails unexpectedly.
          chart: {
            prepare: (p: unknown) => ({ params: p, dataVersion: 0, symbols: [], missing: [], dataSource: "x" }),
            reserve: () => ({ release: () => {} }),
            compute: () => {
              throw new Error("SELECT secret FROM boom");
            },
          } as unknown as ChartService,
        },
      },
    );
    try {
      failing.clock.set("2026-11-27T08:00:00Z");
      const token = await failing.token("iris");
      const res = await failing.get(PATH, { token, headers: { "X-Request-Id": "req-500" } });
      expect(res.status).toBe(500);
      const b = await body(res);
      expect(b.errors[0].code).toBe("INTERNAL_ERROR");
      expect(b.errors[0].message).toContain("req-500");
      expect(b.errors[0].message).not.toContain("SELECT");
      expect(res.headers.get("x-ratelimit-remaining")).toBe("1");
      expect(res.headers.get("x-ratelimit-daily-remaining")).toBe("30");
      const row = failing.server.opened.sqlite.query("SELECT status, counted FROM request_log WHERE request_id = 'req-500'").get();
      expect(row).toEqual({ status: 500, counted: 0 });
    } finally {
      await failing.stop();
    }
  });
});

describe("audit log", () => {
  test("every live request of a known user — admitted, refused, invalid — is logged with status and duration; unauthenticated ones are counted per minute and code", async () => {
    h.clock.set("2026-11-28T08:00:00Z");
    const token = await h.token("judy");
    const ids = ["a-200", "a-429", "a-400", "a-401"];
    await h.get(PATH, { token, headers: { "X-Request-Id": ids[0] } });
    await h.get(PATH, { token, headers: { "X-Request-Id": ids[1] } });
    await h.get("/v1/graph-stats/chart?lookback=x", { token, headers: { "X-Request-Id": ids[2] } });
    await h.get(PATH, { headers: { "X-Request-Id": ids[3] } });
    const logged = () =>
      h.server.opened.sqlite
        .query(
          `SELECT request_id AS id, user_id AS user, status, counted, duration_ms IS NOT NULL AS timed FROM request_log WHERE request_id IN (${ids.map(() => "?").join(",")}) ORDER BY id`,
        )
        .all(...ids) as { id: string; user: string; status: number; counted: number; timed: number }[];
    // Outcomes and refusal rows are written off the request path, right after the answer (metering/maintenance.ts).
    let rows = logged();
    for (let i = 0; i < 60 && !(rows.length === 3 && rows.every((r) => r.timed === 1)); i++) {
      await Bun.sleep(50);
      rows = logged();
    }
    expect(rows).toEqual([
      { id: "a-200", user: "judy", status: 200, counted: 1, timed: 1 },
      { id: "a-400", user: "judy", status: 400, counted: 0, timed: 1 },
      { id: "a-429", user: "judy", status: 429, counted: 0, timed: 1 },
    ]);
    // Written in a batch every second (metering/maintenance.ts), one row per minute and code.
    const minute = Date.parse("2026-11-28T08:00:00Z");
    const counted = () =>
      h.server.opened.sqlite.query("SELECT count FROM unauthenticated_counts WHERE minute = ? AND code = 'UNAUTHORIZED'").get(minute);
    for (let i = 0; i < 60 && !counted(); i++) await Bun.sleep(50);
    expect(counted()).toEqual({ count: 1 });
  });
});
