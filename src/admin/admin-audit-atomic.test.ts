/**
 * An operator action and its audit entry are one transaction, on SQLite and PostgreSQL: when the
 * entry cannot be written (here a trigger refuses it, as a full disk or a broken table would), the
 * action is not kept either, so no change is ever made without its record.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { adminStoresOf } from "../../test/support/admin-stores.ts";
import { type Backend, closeBackends, KINDS, openBackend } from "../../test/support/both-databases.ts";
import { TestClock } from "../clock.ts";

afterAll(closeBackends);

const T = Date.parse("2026-12-01T10:00:00Z");
const DEFAULTS = { perMinute: 1, perDay: 30 };
const ACTOR = "cli:op";
const REFUSED = "audit write refused";

/** Makes every insert into admin_audit fail, or (`false`) stops doing so. */
async function refuseAudit(b: Backend, refuse: boolean) {
  if (b.kind === "sqlite") {
    b.sqlite.sqlite.exec(
      refuse
        ? `CREATE TRIGGER refuse_audit BEFORE INSERT ON admin_audit BEGIN SELECT RAISE(ABORT, '${REFUSED}'); END`
        : "DROP TRIGGER refuse_audit",
    );
    return;
  }
  await b.pg.sql.unsafe(
    refuse
      ? `CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '${REFUSED}'; END $$;
         CREATE TRIGGER refuse_audit BEFORE INSERT ON admin_audit FOR EACH ROW EXECUTE FUNCTION refuse_audit();`
      : "DROP TRIGGER refuse_audit ON admin_audit; DROP FUNCTION refuse_audit();",
  );
}

describe.each(KINDS)("on %s", (kind) => {
  test("every action fails with its audit entry and leaves users, plans and tokens as they were; once entries are written, it is kept", async () => {
    const clock = new TestClock(T);
    const b = await openBackend(kind);
    const { auth, admin } = adminStoresOf(b, clock);
    await auth.createUser({ id: "ann", now: T });
    await admin.createPlan(ACTOR, "team", { perMinute: 10, perDay: 100 });
    await admin.createPlan(ACTOR, "spare", { perMinute: 2, perDay: 20 });
    await auth.issueTokens([{ jti: "t1", userId: "ann", issuedAt: T, expiresAt: T + 1e9 }], { now: T });
    const state = async () => ({
      ann: await auth.getUser("ann"),
      bob: await auth.getUser("bob"),
      plans: await admin.plans(DEFAULTS),
      tokens: await auth.listTokens(),
      audit: await admin.audit({ limit: 100 }),
    });
    const before = await state();

    await refuseAudit(b, true);
    const actions: Record<string, () => Promise<unknown>> = {
      "user.plan": () => admin.assignPlan(ACTOR, "ann", "team"),
      "user.limits": () => admin.setLimits(ACTOR, "ann", { perMinute: 5 }),
      "user.disable": () => admin.setDisabled(ACTOR, "ann", true),
      "user.admin.on": () => admin.setAdmin(ACTOR, "ann", true),
      "user.create": () => admin.createUser(ACTOR, "bob", "bob@example.com"),
      "user.revoke-tokens": () => admin.revokeTokensOf(ACTOR, "ann"),
      "token.revoke": () => admin.revokeToken(ACTOR, "t1"),
      "token.revoke of a jti never minted": () => admin.revokeToken(ACTOR, "elsewhere"),
      "plan.create": () => admin.createPlan(ACTOR, "pro", { perMinute: 5, perDay: 50 }),
      "plan.set": () => admin.setPlan(ACTOR, "team", { perDay: 5 }, DEFAULTS),
      "plan.set free (its first change stores it)": () => admin.setPlan(ACTOR, "free", { perMinute: 3 }, DEFAULTS),
      "plan.delete": () => admin.deletePlan(ACTOR, "spare"),
    };
    const outcomes: Record<string, string> = {};
    for (const [name, act] of Object.entries(actions))
      outcomes[name] = await act().then(
        () => "kept",
        (err: Error) => (err.message.includes(REFUSED) ? "refused" : err.message),
      );
    expect(outcomes).toEqual(Object.fromEntries(Object.keys(actions).map((name) => [name, "refused"])));
    expect(await state()).toEqual(before);

    await refuseAudit(b, false);
    expect((await admin.setDisabled(ACTOR, "ann", true)).disabled).toBe(true);
    const [entry] = await admin.audit({ limit: 1 });
    expect({ action: entry!.action, target: entry!.target }).toEqual({ action: "user.disable", target: "ann" });
  });
});
