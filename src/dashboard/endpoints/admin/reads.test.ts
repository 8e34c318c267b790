/**
 * The console's reads through app.handle, as an admin: users found by id, e-mail or name with
 * their limits and usage, the usage overview over the request log, the universes' freshness, and
 * query parameters out of bounds refused with a 400 naming them.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startConsole, type ConsoleRig } from "../../../../test/support/admin-console.ts";

let r: ConsoleRig;
beforeAll(async () => {
  r = await startConsole();
  const now = r.s.clock.now();
  const log = r.s.server.opened.sqlite.query(
    "INSERT INTO request_log (request_id, user_id, ts, status, duration_ms, counted, code, params, boot_id) VALUES (?, ?, ?, ?, ?, ?, ?, '', ?)",
  );
  // In time order, as the log is written (log-ids.ts): 40 days ago one admitted (outside the 30 days),
  // yesterday one refunded 500, today two admitted and one refused.
  log.run("e", r.plain.id, now - 40 * 86_400_000, 200, 5, 1, null, "boot");
  log.run("d", r.plain.id, now - 86_400_000, 500, 5, 0, "INTERNAL_ERROR", "boot");
  log.run("c", r.plain.id, now - 3000, 429, 0.2, 0, "RATE_LIMITED", null);
  log.run("b", r.plain.id, now - 2000, 200, 60, 1, null, "boot");
  log.run("a", r.plain.id, now - 1000, 200, 40, 1, null, "boot");
});
afterAll(() => r.stop());

const get = async (path: string) => (await r.call("GET", path, r.admin)).body.data;

test("users are found by id, e-mail or sign-in name, with limits, tokens and usage today and over 30 days", async () => {
  const byName = await get("/dashboard/api/admin/users?q=pat");
  expect([byName.total, byName.offset, byName.limit]).toEqual([1, 0, 50]);
  expect(byName.users[0]).toEqual({
    id: r.plain.id,
    email: "pat@idp.example",
    name: "pat",
    plan: "free",
    limits: { per_minute: 1, per_day: 30, source_per_minute: "default", source_per_day: "default" },
    own_limits: { per_minute: null, per_day: null },
    disabled: false,
    admin: false,
    live_tokens: 0,
    today: { admitted: 2, refused: 1, uncounted: 0 },
    last_30_days: { admitted: 2, refused: 1, uncounted: 1 },
  });
  expect((await get("/dashboard/api/admin/users?q=PAT@IDP")).users.map((u: { id: string }) => u.id)).toEqual([r.plain.id]);
  expect((await get(`/dashboard/api/admin/users?q=${r.plain.id}`)).total).toBe(1);
  const page = await get("/dashboard/api/admin/users?limit=1&offset=1");
  expect([page.total, page.users.length, page.offset]).toEqual([2, 1, 1]);
});

test("the usage overview: every day of the range, the top users, refusals per code, refunds and compute time", async () => {
  const o = await get("/dashboard/api/admin/usage?days=2");
  expect(o.days.map((d: { day: string }) => d.day)).toEqual(["2026-11-21", "2026-11-22"]);
  expect(o.days[1]).toEqual({ day: "2026-11-22", admitted: 2, refused: 1, uncounted: 0, refunded: 0, server_errors: 0 });
  expect(o.days[0]).toMatchObject({ uncounted: 1, refunded: 1, server_errors: 1 });
  expect(o.top_users).toEqual([{ user: r.plain.id, email: "pat@idp.example", admitted: 2, compute_ms: 105 }]);
  expect(o.compute_by_user).toEqual([{ user: r.plain.id, compute_ms: 105 }]);
  expect(o.refused_by_code).toEqual([{ code: "RATE_LIMITED", requests: 1 }]);
  expect(o.totals).toEqual({ admitted: 2, refused: 1, uncounted: 1, refunded: 1, server_errors: 1, compute_ms: 105 });
  expect((await get("/dashboard/api/admin/usage")).days).toHaveLength(30);
});

test("the universes with their members, intervals, newest bar and freshness", async () => {
  const { universes } = await get("/dashboard/api/admin/universes");
  const sample = universes.find((u: { name: string }) => u.name === "sample");
  expect(sample).toMatchObject({ name: "sample", data_source: "synthetic", stale: false });
  expect(sample.symbols).toBeGreaterThan(0);
  expect(sample.intervals).toContain("1d");
  expect(sample.last_bar).toMatch(/^\d{4}-\d\d-\d\dT/);
});

test("query parameters out of bounds are 400 naming the parameter", async () => {
  for (const [path, name] of [
    ["/dashboard/api/admin/users?limit=201", "limit"],
    ["/dashboard/api/admin/users?limit=0", "limit"],
    ["/dashboard/api/admin/users?offset=-1", "offset"],
    [`/dashboard/api/admin/users?q=${"x".repeat(201)}`, "q must be at most 200"],
    ["/dashboard/api/admin/usage?days=0", "days"],
    ["/dashboard/api/admin/usage?days=367", "days"],
    ["/dashboard/api/admin/usage?days=abc", "days"],
    ["/dashboard/api/admin/audit?before_id=x", "before_id"],
    [`/dashboard/api/admin/audit?target=${"t".repeat(201)}`, "target"],
  ] as const) {
    const res = await r.call("GET", path, r.admin);
    expect([path, res.status, res.code]).toEqual([path, 400, "BAD_REQUEST"]);
    expect(res.message).toStartWith(name);
  }
});
