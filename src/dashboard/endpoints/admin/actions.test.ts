/**
 * The console's actions through app.handle, as an admin: each changes what it says, answers the
 * user or plan as the console shows it, and appends one audit entry with actor console:<id> and the
 * record before and after. Bad bodies are 400 naming the field, unknown users and plans 404, and
 * an admin may not disable itself (409).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startConsole, type ConsoleRig } from "../../../../test/support/admin-console.ts";

let r: ConsoleRig;
let actor: string;
let pat: string;
beforeAll(async () => {
  r = await startConsole();
  actor = `console:${r.admin.id}`;
  pat = `/dashboard/api/admin/users/${r.plain.id}`;
});
afterAll(() => r.stop());

/** The newest audit entry, its before/after parsed. */
function lastEntry() {
  const e = r.auditRows()[0]!;
  return { ...e, before: e.before && JSON.parse(e.before), after: e.after && JSON.parse(e.after) };
}

describe("plans", () => {
  test("a plan is created (201), listed with its users and edited; each is one audit entry", async () => {
    const made = await r.call("POST", "/dashboard/api/admin/plans", r.admin, { name: "team", per_minute: 10, per_day: 1000 });
    expect([made.status, made.body.data.plan]).toEqual([
      201,
      { name: "team", per_minute: 10, per_day: 1000, users: 0, updated_at: new Date(r.s.clock.now()).toISOString() },
    ]);
    expect(lastEntry()).toMatchObject({
      actor,
      action: "plan.create",
      target: "team",
      before: null,
      after: { per_minute: 10, per_day: 1000 },
    });
    const edited = await r.call("POST", "/dashboard/api/admin/plans/team", r.admin, { per_day: 2000 });
    expect([edited.status, edited.body.data.plan.per_minute, edited.body.data.plan.per_day]).toEqual([200, 10, 2000]);
    expect(lastEntry()).toMatchObject({ actor, action: "plan.set", target: "team", before: { per_day: 1000 }, after: { per_day: 2000 } });
    const listed = (await r.call("GET", "/dashboard/api/admin/plans", r.admin)).body.data.plans;
    expect(listed.map((p: { name: string }) => p.name)).toEqual(["free", "team"]);
    expect(listed[0].updated_at).toBeNull();
  });

  test("an existing plan is 409, an unknown one 404, a bad name or limit 400 naming the field", async () => {
    expect((await r.call("POST", "/dashboard/api/admin/plans", r.admin, { name: "team", per_minute: 1, per_day: 1 })).status).toBe(409);
    const unknown = await r.call("POST", "/dashboard/api/admin/plans/nope", r.admin, { per_day: 5 });
    expect([unknown.status, unknown.code]).toEqual([404, "NOT_FOUND"]);
    const cases: [unknown, string][] = [
      [{ name: "x", per_minute: 0, per_day: 1 }, "per_minute"],
      [{ name: "x", per_minute: 1 }, "per_day"],
      [{ name: "x", per_minute: 1, per_day: 1.5 }, "per_day"],
      [{ name: "Bad Name", per_minute: 1, per_day: 1 }, "plan name"],
      [{ name: "x", per_minute: 1, per_day: 1, colour: "red" }, "colour"],
    ];
    for (const [body, field] of cases) {
      const res = await r.call("POST", "/dashboard/api/admin/plans", r.admin, body);
      expect([res.status, res.code]).toEqual([400, "BAD_REQUEST"]);
      expect(res.message).toContain(field);
    }
    const empty = await r.call("POST", "/dashboard/api/admin/plans/team", r.admin, {});
    expect([empty.status, empty.message]).toEqual([400, "body: give per_minute and/or per_day"]);
  });
});

describe("users", () => {
  test("a plan assigned: the user's limits come from it; unknown plan or user 404", async () => {
    await r.call("POST", "/dashboard/api/admin/plans", r.admin, { name: "lab", per_minute: 7, per_day: 700 });
    const res = await r.call("POST", `${pat}/plan`, r.admin, { plan: "lab" });
    expect(res.status).toBe(200);
    expect(res.body.data.user).toMatchObject({
      id: r.plain.id,
      plan: "lab",
      limits: { per_minute: 7, per_day: 700, source_per_minute: "plan", source_per_day: "plan" },
      own_limits: { per_minute: null, per_day: null },
    });
    expect(lastEntry()).toMatchObject({ actor, action: "user.plan", target: r.plain.id, before: { plan: "free" }, after: { plan: "lab" } });
    expect((await r.call("POST", `${pat}/plan`, r.admin, { plan: "nope" })).status).toBe(404);
    expect((await r.call("POST", "/dashboard/api/admin/users/nobody/plan", r.admin, { plan: "lab" })).status).toBe(404);
    const bad = await r.call("POST", `${pat}/plan`, r.admin, { plan: 5 });
    expect([bad.status, bad.message?.startsWith("plan:")]).toEqual([400, true]);
  });

  test("own limits override the plan's; null sends one back to the plan's", async () => {
    await r.call("POST", `${pat}/plan`, r.admin, { plan: "free" });
    const set = await r.call("POST", `${pat}/limits`, r.admin, { per_minute: 5, per_day: 50 });
    expect(set.body.data.user.limits).toEqual({ per_minute: 5, per_day: 50, source_per_minute: "user", source_per_day: "user" });
    expect(lastEntry()).toMatchObject({
      actor,
      action: "user.limits",
      before: { per_minute: null },
      after: { per_minute: 5, per_day: 50 },
    });
    const back = await r.call("POST", `${pat}/limits`, r.admin, { per_minute: null });
    expect(back.body.data.user.own_limits).toEqual({ per_minute: null, per_day: 50 });
    expect(back.body.data.user.limits.source_per_minute).toBe("default");
    for (const [body, field] of [
      [{ per_minute: 0 }, "per_minute"],
      [{ per_day: "many" }, "per_day"],
      [{}, "give per_minute and/or per_day"],
      ["not json", "JSON"],
    ] as const) {
      const res = await r.call("POST", `${pat}/limits`, r.admin, body);
      expect([res.status, res.message?.includes(field)]).toEqual([400, true]);
    }
    expect((await r.call("POST", "/dashboard/api/admin/users/nobody/limits", r.admin, { per_day: 3 })).status).toBe(404);
  });

  test("disable and enable, each audited; an admin may not disable itself", async () => {
    const off = await r.call("POST", `${pat}/disable`, r.admin, {});
    expect([off.status, off.body.data.user.disabled]).toEqual([200, true]);
    expect(lastEntry()).toMatchObject({ actor, action: "user.disable", before: { disabled: false }, after: { disabled: true } });
    const on = await r.call("POST", `${pat}/enable`, r.admin);
    expect([on.status, on.body.data.user.disabled]).toEqual([200, false]);
    expect(lastEntry()).toMatchObject({ actor, action: "user.enable", before: { disabled: true }, after: { disabled: false } });
    const before = r.auditRows().length;
    const self = await r.call("POST", `/dashboard/api/admin/users/${r.admin.id}/disable`, r.admin, {});
    expect([self.status, self.code]).toEqual([409, "CONFLICT"]);
    expect(self.message).toContain("use the CLI");
    expect(r.auditRows().length).toBe(before);
    expect((await r.call("POST", "/dashboard/api/admin/users/nobody/disable", r.admin, {})).status).toBe(404);
    expect((await r.call("POST", `${pat}/enable`, r.admin, { force: true })).message).toContain("force");
  });

  test("revoking a user's tokens revokes each live one: the token is then refused", async () => {
    const minted = await r.call("POST", "/dashboard/api/tokens", r.plain, undefined);
    expect(minted.status).toBe(201);
    const { token, jti } = minted.body.data;
    const bearer = { headers: { Authorization: `Bearer ${token}` } };
    expect((await r.s.handle("/v1/universes", bearer)).status).toBe(200);
    const res = await r.call("POST", `${pat}/revoke-tokens`, r.admin, {});
    expect([res.status, res.body.data.revoked, res.body.data.user.live_tokens]).toEqual([200, [jti], 0]);
    expect(lastEntry()).toMatchObject({ actor, action: "user.revoke-tokens", before: { live: [jti] }, after: { live: [] } });
    expect((await r.s.handle("/v1/universes", bearer)).status).toBe(401);
    expect((await r.call("POST", "/dashboard/api/admin/users/nobody/revoke-tokens", r.admin, {})).status).toBe(404);
  });

  test("the audit API shows the entries newest first with before/after parsed, filtered and paged", async () => {
    const all = (await r.call("GET", "/dashboard/api/admin/audit?limit=200", r.admin)).body.data;
    expect(all.entries.length).toBe(r.auditRows().length);
    expect(all.next_before_id).toBeNull();
    expect(all.entries[0]).toMatchObject({ actor, action: "user.revoke-tokens", target: r.plain.id, after: { live: [] } });
    expect(all.entries[0].ts).toBe(new Date(r.s.clock.now()).toISOString());
    const first = (await r.call("GET", "/dashboard/api/admin/audit?limit=2", r.admin)).body.data;
    const next = (await r.call("GET", `/dashboard/api/admin/audit?limit=2&before_id=${first.next_before_id}`, r.admin)).body.data;
    expect([...first.entries, ...next.entries].map((e: { id: number }) => e.id)).toEqual(
      all.entries.slice(0, 4).map((e: { id: number }) => e.id),
    );
    const team = (await r.call("GET", "/dashboard/api/admin/audit?target=team", r.admin)).body.data.entries;
    expect(team.map((e: { action: string }) => e.action)).toEqual(["plan.set", "plan.create"]);
    expect((await r.call("GET", "/dashboard/api/admin/audit?limit=201", r.admin)).message).toContain("limit");
  });
});
