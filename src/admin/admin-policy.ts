/**
 * The AdminStore's rules, written once for both databases (admin-store.ts): inputs are checked
 * before any write; each action reads the record, writes, reads it again and appends one audit
 * entry with both (an action that changed nothing is still recorded: an operator asked for it),
 * all in one transaction, so a change is never kept without its entry. The actions are rules
 * (src/market/rule.ts) so that on SQLite their transaction is synchronous.
 */
import type { AuthStore, UserRecord } from "../auth/auth-store.ts";
import { checkLimits } from "../auth/user-limits.ts";
import type { Clock } from "../clock.ts";
import type { Limits } from "../metering/windows.ts";
import { StatusError } from "../status-error.ts";
import { answer, type Rule, run } from "../market/rule.ts";
import type { AdminPort, AdminStatements, PlanRow } from "./admin-port.ts";
import type { AdminStore } from "./admin-store.ts";
import { checkPlanName, FREE, plansWithFree, type Plan } from "./plans.ts";

const MAX_SEARCH = 500;

/** What an audit entry keeps of a user: the fields an operator changes. */
const userState = (u: UserRecord) =>
  JSON.stringify({
    plan: u.plan ?? FREE,
    per_minute: u.perMinute,
    per_day: u.perDay,
    disabled: u.disabled,
    admin: u.admin,
    email: u.email,
  });
const planState = (p: Pick<PlanRow, "perMinute" | "perDay">) => JSON.stringify({ per_minute: p.perMinute, per_day: p.perDay });

function limitsChecked(limits: Partial<Limits>): void {
  try {
    checkLimits(limits);
  } catch (err) {
    throw new StatusError(400, "BAD_REQUEST", (err as Error).message);
  }
}

export function createAdminStore(port: AdminPort, auth: AuthStore, clock: Clock): AdminStore {
  /** Runs the action's rule in one transaction; a refusal or a failed write (the audit entry's too) undoes it all. */
  const act = async <T>(rule: (tx: AdminStatements) => Rule<T>): Promise<T> => port.inTransaction((tx) => run(rule(tx)));

  function* record(tx: AdminStatements, actor: string, action: string, target: string, before: string | null, after: string | null) {
    yield* answer(tx.writeAudit({ ts: clock.now(), actor, action, target, before, after }));
  }

  const noUser = (id: string) =>
    new StatusError(
      404,
      "NOT_FOUND",
      `no user '${id.slice(0, 200)}' (users are created by 'user create', a sign-in or a token's first use)`,
    );

  function* userOrThrow(tx: AdminStatements, id: string): Rule<UserRecord> {
    const u = yield* answer(tx.user(id));
    if (!u) throw noUser(id);
    return u;
  }

  function* planOrThrow(tx: AdminStatements, name: string): Rule<PlanRow> {
    const row = yield* answer(tx.plan(name));
    if (!row) throw new StatusError(404, "NOT_FOUND", `no plan '${name.slice(0, 80)}' (see 'plan list')`);
    return row;
  }

  /** Reads the user, runs `change`, reads it again and records both. */
  function* changed(tx: AdminStatements, actor: string, action: string, id: string, change: () => Rule<unknown>): Rule<UserRecord> {
    const before = yield* userOrThrow(tx, id);
    yield* change();
    const after = yield* userOrThrow(tx, id);
    yield* record(tx, actor, action, id, userState(before), userState(after));
    return after;
  }
  const changeUser = (actor: string, action: string, id: string, change: (tx: AdminStatements) => Rule<unknown>) =>
    act((tx) => changed(tx, actor, action, id, () => change(tx)));

  return {
    async plans(defaults) {
      const [rows, counts] = await Promise.all([port.plans(), port.planUsers()]);
      const users = new Map(counts.map((c) => [c.plan ?? FREE, c.users]));
      return plansWithFree(rows, defaults).map((p) => ({ ...p, users: users.get(p.name) ?? 0 }));
    },
    async freePlan() {
      const row = await port.plan(FREE);
      return row ? { perMinute: row.perMinute, perDay: row.perDay } : null;
    },
    async createPlan(actor, name, limits) {
      checkPlanName(name);
      limitsChecked(limits);
      if (name === FREE) throw new StatusError(409, "CONFLICT", `plan '${FREE}' always exists; change it with 'plan set ${FREE}'`);
      const row = { name, perMinute: limits.perMinute, perDay: limits.perDay, updatedAt: clock.now() };
      return act(function* (tx) {
        if (!(yield* answer(tx.insertPlan(row))))
          throw new StatusError(409, "CONFLICT", `plan '${name}' already exists; change it with 'plan set ${name}'`);
        yield* record(tx, actor, "plan.create", name, null, planState(row));
        return { name, perMinute: row.perMinute, perDay: row.perDay, stored: true, updatedAt: row.updatedAt };
      });
    },
    async setPlan(actor, name, limits, defaults) {
      checkPlanName(name);
      limitsChecked(limits);
      if (limits.perMinute === undefined && limits.perDay === undefined)
        throw new StatusError(400, "BAD_REQUEST", "give --per-minute and/or --per-day");
      return act(function* (tx) {
        let before: Pick<PlanRow, "perMinute" | "perDay"> | null = yield* answer(tx.plan(name));
        if (!before && name === FREE) {
          // The default plan's first change starts from the configured defaults it stood for.
          yield* answer(tx.insertPlan({ name, ...defaults, updatedAt: clock.now() }));
          before = defaults;
        }
        if (!before) yield* planOrThrow(tx, name);
        yield* answer(tx.updatePlan(name, limits.perMinute ?? null, limits.perDay ?? null, clock.now()));
        const after = yield* planOrThrow(tx, name);
        yield* record(tx, actor, "plan.set", name, planState(before!), planState(after));
        return { name, perMinute: after.perMinute, perDay: after.perDay, stored: true, updatedAt: after.updatedAt };
      });
    },
    async deletePlan(actor, name) {
      if (name === FREE) throw new StatusError(400, "BAD_REQUEST", `plan '${FREE}' is the default and cannot be deleted`);
      return act(function* (tx) {
        const before = yield* planOrThrow(tx, name);
        const r = yield* answer(tx.deletePlanUnused(name));
        if (!r.deleted) {
          throw new StatusError(409, "CONFLICT", `plan '${name}' has ${r.users} user(s); move them first ('user plan USER ${FREE}')`);
        }
        yield* record(tx, actor, "plan.delete", name, planState(before), null);
      });
    },
    async resolveUser(ref) {
      const byId = await auth.getUser(ref);
      if (byId) return byId;
      if (ref.includes("@")) {
        const ids = await port.idsByEmail(ref);
        if (ids.length === 1) {
          const u = await auth.getUser(ids[0]!);
          if (!u) throw noUser(ids[0]!);
          return u;
        }
        if (ids.length > 1)
          throw new StatusError(
            400,
            "BAD_REQUEST",
            `e-mail '${ref.slice(0, 200)}' belongs to ${ids.length} users (${ids.slice(0, 5).join(", ")}); give the user id`,
          );
      }
      throw new StatusError(404, "NOT_FOUND", `no user with id or e-mail '${ref.slice(0, 200)}' (see 'user list')`);
    },
    async assignPlan(actor, userId, plan) {
      checkPlanName(plan);
      return act(function* (tx) {
        if (plan !== FREE) yield* planOrThrow(tx, plan);
        return yield* changed(tx, actor, "user.plan", userId, function* () {
          yield* answer(tx.setUserPlan(userId, plan === FREE ? null : plan));
        });
      });
    },
    async setLimits(actor, userId, limits) {
      const given = limits ?? { perMinute: null, perDay: null };
      limitsChecked({ perMinute: given.perMinute ?? undefined, perDay: given.perDay ?? undefined });
      const resetsAll = given.perMinute === null && given.perDay === null;
      return changeUser(actor, limits && !resetsAll ? "user.limits" : "user.limits.reset", userId, function* (tx) {
        if (given.perMinute !== null && given.perDay !== null) {
          // undefined keeps a field (the statement's coalesce).
          yield* answer(tx.setLimits(userId, { perMinute: given.perMinute ?? null, perDay: given.perDay ?? null }));
          return;
        }
        // A field sent back to its plan's (null): reset both, then set the kept one again, in the one transaction.
        const now = yield* userOrThrow(tx, userId);
        const keep = {
          perMinute: given.perMinute === undefined ? now.perMinute : given.perMinute,
          perDay: given.perDay === undefined ? now.perDay : given.perDay,
        };
        yield* answer(tx.setLimits(userId, "reset"));
        if (keep.perMinute !== null || keep.perDay !== null) yield* answer(tx.setLimits(userId, keep));
      });
    },
    setDisabled: (actor, userId, disabled) =>
      changeUser(actor, disabled ? "user.disable" : "user.enable", userId, function* (tx) {
        yield* answer(tx.setDisabled(userId, disabled));
      }),
    setAdmin: (actor, userId, admin) =>
      changeUser(actor, admin ? "user.admin.on" : "user.admin.off", userId, function* (tx) {
        yield* answer(tx.setAdmin(userId, admin));
      }),
    createUser: (actor, id, email) =>
      act(function* (tx) {
        const created = yield* answer(tx.insertUser(id, email ?? null, clock.now()));
        const user = yield* userOrThrow(tx, id);
        if (created) yield* record(tx, actor, "user.create", id, null, userState(user));
        return { created, user };
      }),
    revokeTokensOf: (actor, userId) =>
      act(function* (tx) {
        yield* userOrThrow(tx, userId);
        const jtis = yield* answer(tx.revokeAll(userId, clock.now()));
        yield* record(tx, actor, "user.revoke-tokens", userId, JSON.stringify({ live: jtis }), JSON.stringify({ live: [] }));
        return jtis;
      }),
    revokeToken: (actor, jti) =>
      act(function* (tx) {
        // As the auth store's revokeToken: a jti never minted here is recorded as revoked too.
        const now = clock.now();
        const outcome = (yield* answer(tx.revoke(jti, now)))
          ? "revoked"
          : (yield* answer(tx.revokeUnknown(jti, now)))
            ? "revoked-unknown-jti"
            : "already-revoked";
        if (outcome !== "already-revoked") yield* record(tx, actor, "token.revoke", jti, null, JSON.stringify({ outcome }));
        return outcome;
      }),
    async recordTokensIssued(actor, userId, jtis) {
      // A batch of load-test tokens is one entry: its count and the first jtis, not every one.
      await port.writeAudit({
        ts: clock.now(),
        actor,
        action: "token.create",
        target: userId,
        before: null,
        after: JSON.stringify({ tokens: jtis.length, jtis: jtis.slice(0, 20) }),
      });
    },
    async userSummary(id) {
      const u = await port.userSummary(id, clock.now());
      if (!u) throw noUser(id);
      return u;
    },
    async searchUsers(text, page) {
      const limit = Math.min(Math.max(1, page.limit), MAX_SEARCH);
      return port.searchUsers(text.trim().slice(0, 200), limit, Math.max(0, page.offset), clock.now());
    },
    audit: async (filter) => port.audit({ ...filter, limit: Math.min(Math.max(1, filter.limit), 1000) }),
  };
}

export type { Plan };
