/**
 * The AdminStore's rules, written once for both databases (admin-store.ts): inputs are checked
 * before any write; each action reads the record, writes, reads it again and appends one audit
 * entry with both (an action that changed nothing is still recorded: an operator asked for it).
 */
import type { AuthStore, UserRecord } from "../auth/auth-store.ts";
import { checkLimits } from "../auth/user-limits.ts";
import type { Clock } from "../clock.ts";
import type { Limits } from "../metering/windows.ts";
import { StatusError } from "../status-error.ts";
import type { AdminPort, PlanRow } from "./admin-port.ts";
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
  const record = async (actor: string, action: string, target: string, before: string | null, after: string | null) =>
    port.writeAudit({ ts: clock.now(), actor, action, target, before, after });

  const userOrThrow = async (id: string): Promise<UserRecord> => {
    const u = await auth.getUser(id);
    if (!u)
      throw new StatusError(
        404,
        "NOT_FOUND",
        `no user '${id.slice(0, 200)}' (users are created by 'user create', a sign-in or a token's first use)`,
      );
    return u;
  };

  /** Reads the user, runs `change`, reads it again and records both. */
  const changeUser = async (actor: string, action: string, id: string, change: () => unknown) => {
    const before = await userOrThrow(id);
    await change();
    const after = await userOrThrow(id);
    await record(actor, action, id, userState(before), userState(after));
    return after;
  };

  const planOrThrow = async (name: string): Promise<PlanRow> => {
    const row = await port.plan(name);
    if (!row) throw new StatusError(404, "NOT_FOUND", `no plan '${name.slice(0, 80)}' (see 'plan list')`);
    return row;
  };

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
      if (!(await port.insertPlan(row)))
        throw new StatusError(409, "CONFLICT", `plan '${name}' already exists; change it with 'plan set ${name}'`);
      await record(actor, "plan.create", name, null, planState(row));
      return { name, perMinute: row.perMinute, perDay: row.perDay, stored: true, updatedAt: row.updatedAt };
    },
    async setPlan(actor, name, limits, defaults) {
      checkPlanName(name);
      limitsChecked(limits);
      if (limits.perMinute === undefined && limits.perDay === undefined)
        throw new StatusError(400, "BAD_REQUEST", "give --per-minute and/or --per-day");
      let before = await port.plan(name);
      if (!before && name === FREE) {
        // The default plan's first change starts from the configured defaults it stood for.
        await port.insertPlan({ name, ...defaults, updatedAt: clock.now() });
        before = await planOrThrow(name);
        await port.updatePlan(name, limits.perMinute ?? null, limits.perDay ?? null, clock.now());
        const after = await planOrThrow(name);
        await record(actor, "plan.set", name, planState(defaults), planState(after));
        return { name, perMinute: after.perMinute, perDay: after.perDay, stored: true, updatedAt: after.updatedAt };
      }
      if (!before) await planOrThrow(name);
      await port.updatePlan(name, limits.perMinute ?? null, limits.perDay ?? null, clock.now());
      const after = await planOrThrow(name);
      await record(actor, "plan.set", name, planState(before!), planState(after));
      return { name, perMinute: after.perMinute, perDay: after.perDay, stored: true, updatedAt: after.updatedAt };
    },
    async deletePlan(actor, name) {
      if (name === FREE) throw new StatusError(400, "BAD_REQUEST", `plan '${FREE}' is the default and cannot be deleted`);
      const before = await planOrThrow(name);
      const r = await port.deletePlanUnused(name);
      if (!r.deleted) {
        throw new StatusError(409, "CONFLICT", `plan '${name}' has ${r.users} user(s); move them first ('user plan USER ${FREE}')`);
      }
      await record(actor, "plan.delete", name, planState(before), null);
    },
    async resolveUser(ref) {
      const byId = await auth.getUser(ref);
      if (byId) return byId;
      if (ref.includes("@")) {
        const ids = await port.idsByEmail(ref);
        if (ids.length === 1) return userOrThrow(ids[0]!);
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
      if (plan !== FREE) await planOrThrow(plan);
      return changeUser(actor, "user.plan", userId, () => port.setUserPlan(userId, plan === FREE ? null : plan));
    },
    async setLimits(actor, userId, limits) {
      const given = limits ?? { perMinute: null, perDay: null };
      limitsChecked({ perMinute: given.perMinute ?? undefined, perDay: given.perDay ?? undefined });
      const resets = given.perMinute === null || given.perDay === null;
      return changeUser(
        actor,
        limits && !(given.perMinute === null && given.perDay === null) ? "user.limits" : "user.limits.reset",
        userId,
        async () => {
          if (!resets) return auth.setLimits(userId, given as Partial<Limits>);
          // The store sets numbers or resets both: a field sent back to its plan's is a reset, then the kept one set again.
          const now = await userOrThrow(userId);
          const keep = {
            perMinute: given.perMinute === undefined ? (now.perMinute ?? undefined) : (given.perMinute ?? undefined),
            perDay: given.perDay === undefined ? (now.perDay ?? undefined) : (given.perDay ?? undefined),
          };
          await auth.setLimits(userId, null);
          if (keep.perMinute !== undefined || keep.perDay !== undefined) await auth.setLimits(userId, keep);
        },
      );
    },
    setDisabled: (actor, userId, disabled) =>
      changeUser(actor, disabled ? "user.disable" : "user.enable", userId, () => auth.setDisabled(userId, disabled)),
    setAdmin: (actor, userId, admin) =>
      changeUser(actor, admin ? "user.admin.on" : "user.admin.off", userId, () => port.setAdmin(userId, admin)),
    async createUser(actor, id, email) {
      const r = await auth.createUser({ id, email, now: clock.now() });
      if (r.created) await record(actor, "user.create", id, null, userState(r.user));
      return r;
    },
    async revokeTokensOf(actor, userId) {
      await userOrThrow(userId);
      const jtis = await port.revokeAll(userId, clock.now());
      await record(actor, "user.revoke-tokens", userId, JSON.stringify({ live: jtis }), JSON.stringify({ live: [] }));
      return jtis;
    },
    async revokeToken(actor, jti) {
      const outcome = await auth.revokeToken(jti, clock.now());
      if (outcome !== "already-revoked") await record(actor, "token.revoke", jti, null, JSON.stringify({ outcome }));
      return outcome;
    },
    async recordTokensIssued(actor, userId, jtis) {
      // A batch of load-test tokens is one entry: its count and the first jtis, not every one.
      await record(actor, "token.create", userId, null, JSON.stringify({ tokens: jtis.length, jtis: jtis.slice(0, 20) }));
    },
    async userSummary(id) {
      const u = await port.userSummary(id, clock.now());
      if (!u) await userOrThrow(id);
      return u!;
    },
    async searchUsers(text, page) {
      const limit = Math.min(Math.max(1, page.limit), MAX_SEARCH);
      return port.searchUsers(text.trim().slice(0, 200), limit, Math.max(0, page.offset), clock.now());
    },
    audit: async (filter) => port.audit({ ...filter, limit: Math.min(Math.max(1, filter.limit), 1000) }),
  };
}

export type { Plan };
