/**
 * The AdminStore's contract (admin-port.ts under admin-policy.ts), case for case the same on SQLite
 * and PostgreSQL: plans and their limits as the request path reads them, on this connection and on
 * another (a second instance), users found by id, e-mail or name, a user's tokens revoked at once,
 * and the admin audit log of every action.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { closeBackends, KINDS, openBackend, sameDatabase } from "../../test/support/both-databases.ts";
import { adminStoresOf } from "../../test/support/admin-stores.ts";
import { effectiveLimits } from "../auth/user-access.ts";
import { TestClock } from "../clock.ts";
import { StatusError } from "../status-error.ts";

afterAll(closeBackends);

const T = Date.parse("2026-12-01T10:00:00Z");
const DEFAULTS = { perMinute: 1, perDay: 30 };
const ACTOR = "cli:op";

async function rig(kind: (typeof KINDS)[number]) {
  const clock = new TestClock(T);
  const b = await openBackend(kind);
  const own = adminStoresOf(b, clock);
  const other = adminStoresOf(await sameDatabase(b), clock);
  return { clock, ...own, other, b };
}

/** The refusal's status and code. */
async function refusal(p: Promise<unknown>): Promise<[number, string, string]> {
  try {
    await p;
  } catch (err) {
    if (err instanceof StatusError) return [err.status, err.code, err.message];
    throw err;
  }
  throw new Error("expected a refusal");
}

describe.each(KINDS)("AdminStore on %s", (kind) => {
  test("free is listed with the defaults until redefined; plans are created, changed, counted and deleted", async () => {
    const { admin, auth } = await rig(kind);
    expect(await admin.plans(DEFAULTS)).toEqual([{ name: "free", perMinute: 1, perDay: 30, stored: false, updatedAt: null, users: 0 }]);
    await admin.createPlan(ACTOR, "team", { perMinute: 10, perDay: 1000 });
    expect((await refusal(admin.createPlan(ACTOR, "team", { perMinute: 1, perDay: 1 }))).slice(0, 2)).toEqual([409, "CONFLICT"]);
    expect((await refusal(admin.createPlan(ACTOR, "Bad Name", { perMinute: 1, perDay: 1 }))).slice(0, 2)).toEqual([400, "BAD_REQUEST"]);
    expect((await refusal(admin.createPlan(ACTOR, "zero", { perMinute: 0, perDay: 1 }))).slice(0, 2)).toEqual([400, "BAD_REQUEST"]);
    expect((await refusal(admin.setPlan(ACTOR, "nope", { perDay: 5 }, DEFAULTS))).slice(0, 2)).toEqual([404, "NOT_FOUND"]);
    await admin.setPlan(ACTOR, "team", { perDay: 2000 }, DEFAULTS);
    await admin.setPlan(ACTOR, "free", { perMinute: 2 }, DEFAULTS);
    await auth.createUser({ id: "ann", now: T });
    await admin.assignPlan(ACTOR, "ann", "team");
    expect(await admin.plans(DEFAULTS)).toEqual([
      { name: "free", perMinute: 2, perDay: 30, stored: true, updatedAt: T, users: 0 },
      { name: "team", perMinute: 10, perDay: 2000, stored: true, updatedAt: T, users: 1 },
    ]);
    const [status, code, message] = await refusal(admin.deletePlan(ACTOR, "team"));
    expect([status, code]).toEqual([409, "CONFLICT"]);
    expect(message).toContain("1 user(s)");
    expect((await refusal(admin.deletePlan(ACTOR, "free"))).slice(0, 2)).toEqual([400, "BAD_REQUEST"]);
    await admin.assignPlan(ACTOR, "ann", "free");
    await admin.deletePlan(ACTOR, "team");
    expect((await admin.plans(DEFAULTS)).map((p) => p.name)).toEqual(["free"]);
    expect((await refusal(admin.assignPlan(ACTOR, "ann", "team"))).slice(0, 2)).toEqual([404, "NOT_FOUND"]);
  });

  test("the request path's read gives the plan's limits, the user's own over them, on another connection at once", async () => {
    const { admin, other } = await rig(kind);
    await other.auth.createUser({ id: "bob", now: T });
    const limitsSeenByOther = async () => {
      const { user } = await other.auth.caller("bob", "some-jti");
      return effectiveLimits(user!, DEFAULTS);
    };
    expect(await limitsSeenByOther()).toEqual({ perMinute: 1, perDay: 30 });
    await admin.createPlan(ACTOR, "research", { perMinute: 20, perDay: 5000 });
    await admin.assignPlan(ACTOR, "bob", "research");
    expect(await limitsSeenByOther()).toEqual({ perMinute: 20, perDay: 5000 });
    await admin.setPlan(ACTOR, "research", { perMinute: 30 }, DEFAULTS);
    expect(await limitsSeenByOther()).toEqual({ perMinute: 30, perDay: 5000 });
    await admin.setLimits(ACTOR, "bob", { perDay: 7 });
    expect(await limitsSeenByOther()).toEqual({ perMinute: 30, perDay: 7 });
    await admin.setLimits(ACTOR, "bob", null);
    await admin.assignPlan(ACTOR, "bob", "free");
    await admin.setPlan(ACTOR, "free", { perDay: 50 }, DEFAULTS);
    expect(await limitsSeenByOther()).toEqual({ perMinute: 1, perDay: 50 });
    expect(await admin.freePlan()).toEqual({ perMinute: 1, perDay: 50 });
  });

  test("one limit sent back to the plan's keeps the other; both in one audit entry", async () => {
    const { admin, auth } = await rig(kind);
    await auth.createUser({ id: "fay", now: T });
    await admin.setLimits(ACTOR, "fay", { perMinute: 3, perDay: 7 });
    const after = await admin.setLimits(ACTOR, "fay", { perMinute: null });
    expect([after.perMinute, after.perDay]).toEqual([null, 7]);
    expect([(await admin.setLimits(ACTOR, "fay", { perDay: null })).perDay, (await auth.getUser("fay"))!.perMinute]).toEqual([null, null]);
    const [last, previous] = await admin.audit({ limit: 2, target: "fay" });
    expect([last!.action, JSON.parse(last!.before!).per_day, JSON.parse(last!.after!).per_day]).toEqual(["user.limits", 7, null]);
    expect([JSON.parse(previous!.before!).per_minute, JSON.parse(previous!.after!).per_minute]).toEqual([3, null]);
  });

  test("a user is found by id or by the e-mail it signed in with, ignoring its case; several owners are refused", async () => {
    const { admin, auth } = await rig(kind);
    await auth.createUser({ id: "u1", email: "Ann@Example.com", now: T });
    expect((await admin.resolveUser("u1")).id).toBe("u1");
    expect((await admin.resolveUser("ann@example.com")).id).toBe("u1");
    expect((await refusal(admin.resolveUser("nobody@example.com"))).slice(0, 2)).toEqual([404, "NOT_FOUND"]);
    await auth.createUser({ id: "u2", email: "ann@example.com", now: T });
    const [status, , message] = await refusal(admin.resolveUser("ann@example.com"));
    expect(status).toBe(400);
    expect(message).toContain("u1, u2");
  });

  test("search matches id, e-mail or sign-in name, counts live tokens, pages, and takes % and _ literally; one user alike", async () => {
    const { admin, auth, b } = await rig(kind);
    for (let i = 0; i < 12; i++) await auth.createUser({ id: `user-${String(i).padStart(2, "0")}`, email: `u${i}@lab.example`, now: T });
    await auth.createUser({ id: "x_1", now: T });
    await auth.createUser({ id: "x%2", now: T });
    const identity = "INSERT INTO identities (issuer, subject, user_id, name, created_at, last_sign_in_at) VALUES ($1, $2, $3, $4, $5, $5)";
    if (b.kind === "sqlite") b.sqlite.sqlite.query(identity.replace(/\$(\d)/g, "?$1")).run("iss", "s", "user-03", "Grace Hopper", T);
    else await b.pg.sql.unsafe(identity, ["iss", "s", "user-03", "Grace Hopper", T]);
    await auth.issueTokens(
      [
        { jti: "live", userId: "user-03", issuedAt: T, expiresAt: T + 1000 },
        { jti: "gone", userId: "user-03", issuedAt: T - 2000, expiresAt: T - 1000 },
      ],
      { now: T },
    );
    expect((await admin.searchUsers("grace", { limit: 10, offset: 0 })).users.map((u) => [u.id, u.name, u.liveTokens])).toEqual([
      ["user-03", "Grace Hopper", 1],
    ]);
    expect((await admin.searchUsers("U7@LAB", { limit: 10, offset: 0 })).users.map((u) => u.id)).toEqual(["user-07"]);
    const page = await admin.searchUsers("user-", { limit: 5, offset: 10 });
    expect([page.total, page.users.map((u) => u.id)]).toEqual([12, ["user-10", "user-11"]]);
    expect((await admin.searchUsers("_", { limit: 10, offset: 0 })).users.map((u) => u.id)).toEqual(["x_1"]);
    expect((await admin.searchUsers("%", { limit: 10, offset: 0 })).users.map((u) => u.id)).toEqual(["x%2"]);
    expect((await admin.searchUsers("", { limit: 100, offset: 0 })).total).toBe(14);
    expect(await admin.userSummary("user-03")).toMatchObject({
      id: "user-03",
      email: "u3@lab.example",
      name: "Grace Hopper",
      liveTokens: 1,
    });
    expect((await refusal(admin.userSummary("user-99"))).slice(0, 2)).toEqual([404, "NOT_FOUND"]);
  });

  test("revoking a user's tokens revokes each live one at once, for every connection", async () => {
    const { admin, auth, other } = await rig(kind);
    await auth.issueTokens(
      [
        { jti: "a", userId: "carol", issuedAt: T, expiresAt: T + 10_000 },
        { jti: "b", userId: "carol", issuedAt: T, expiresAt: T + 10_000 },
        { jti: "c", userId: "dave", issuedAt: T, expiresAt: T + 10_000 },
      ],
      { now: T },
    );
    expect((await admin.revokeTokensOf(ACTOR, "carol")).sort()).toEqual(["a", "b"]);
    expect([await other.auth.isRevoked("a"), await other.auth.isRevoked("b"), await other.auth.isRevoked("c")]).toEqual([
      true,
      true,
      false,
    ]);
    expect(await admin.revokeTokensOf(ACTOR, "carol")).toEqual([]);
  });

  test("every action is in the audit log with who, what, when, before and after; filtered and paged newest first", async () => {
    const { admin, auth, clock } = await rig(kind);
    await admin.createUser(ACTOR, "eve", "eve@example.com");
    clock.tick(1000);
    await admin.setAdmin("console:root", "eve", true);
    clock.tick(1000);
    await admin.setDisabled(ACTOR, "eve", true);
    await admin.createPlan(ACTOR, "pro", { perMinute: 5, perDay: 500 });
    await admin.setLimits(ACTOR, "eve", { perMinute: 3 });
    await auth.issueTokens([{ jti: "t1", userId: "eve", issuedAt: T, expiresAt: T + 1e9 }], { now: T });
    await admin.revokeToken(ACTOR, "t1");
    const all = await admin.audit({ limit: 100 });
    expect(all.map((e) => e.action)).toEqual([
      "token.revoke",
      "user.limits",
      "plan.create",
      "user.disable",
      "user.admin.on",
      "user.create",
    ]);
    const adminOn = all.find((e) => e.action === "user.admin.on")!;
    expect(adminOn).toMatchObject({ ts: T + 1000, actor: "console:root", target: "eve" });
    expect([JSON.parse(adminOn.before!).admin, JSON.parse(adminOn.after!).admin]).toEqual([false, true]);
    const limits = all.find((e) => e.action === "user.limits")!;
    expect([JSON.parse(limits.before!).per_minute, JSON.parse(limits.after!).per_minute]).toEqual([null, 3]);
    expect((await admin.audit({ limit: 100, target: "pro" })).map((e) => e.action)).toEqual(["plan.create"]);
    expect((await admin.audit({ limit: 100, actor: "console:root" })).map((e) => e.action)).toEqual(["user.admin.on"]);
    const firstPage = await admin.audit({ limit: 2 });
    const next = await admin.audit({ limit: 2, beforeId: firstPage[1]!.id });
    expect(next.map((e) => e.action)).toEqual(["plan.create", "user.disable"]);
    expect((await auth.getUser("eve"))!.admin).toBe(true);
  });
});
