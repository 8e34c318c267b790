/**
 * The AdminStore's statements on PostgreSQL (src/admin/admin-port.ts), as parameterised queries over
 * the pool; epoch-ms and count columns cast to float8/int so they arrive as numbers. A search's
 * pattern escapes LIKE's wildcards (db/sqlite/admin-statements.ts containsPattern). An action's
 * transaction is the same statements over the transaction's connection.
 */
import type { SQL } from "bun";
import type { UserRecord } from "../../src/auth/auth-store.ts";
import type { AdminPort, AdminStatements, AuditRecord, PlanRow, UserSummary } from "../../src/admin/admin-port.ts";
import { containsPattern } from "../sqlite/admin-statements.ts";

const USER_COLUMNS = (sql: SQL) => sql`u.id, u.email, u.disabled, u.per_minute AS "perMinute", u.per_day AS "perDay",
  u.created_at::float8 AS "createdAt", u.plan, p.per_minute AS "planPerMinute", p.per_day AS "planPerDay", u.admin`;

export function pgAdminPort(sql: SQL): AdminPort {
  return { ...statementsOn(sql), inTransaction: (write) => sql.begin(async (tx) => write(statementsOn(tx))) };
}

function statementsOn(sql: SQL): AdminStatements {
  const PLAN = sql`name, per_minute AS "perMinute", per_day AS "perDay", updated_at::float8 AS "updatedAt"`;
  const match = (text: string) => {
    const pattern = containsPattern(text);
    return sql`(${text} = '' OR u.id ILIKE ${pattern} OR u.email ILIKE ${pattern}
      OR EXISTS (SELECT 1 FROM identities i WHERE i.user_id = u.id AND i.name ILIKE ${pattern}))`;
  };
  return {
    plans: async () => (await sql`SELECT ${PLAN} FROM plans ORDER BY name`) as PlanRow[],
    plan: async (name) => ((await sql`SELECT ${PLAN} FROM plans WHERE name = ${name}`) as PlanRow[])[0] ?? null,
    insertPlan: async (r) =>
      (
        await sql`INSERT INTO plans (name, per_minute, per_day, updated_at) VALUES (${r.name}, ${r.perMinute}, ${r.perDay}, ${r.updatedAt})
          ON CONFLICT DO NOTHING RETURNING name`
      ).length === 1,
    updatePlan: async (name, perMinute, perDay, now) =>
      (
        await sql`UPDATE plans SET per_minute = coalesce(${perMinute}::int, per_minute), per_day = coalesce(${perDay}::int, per_day),
          updated_at = ${now} WHERE name = ${name} RETURNING name`
      ).length === 1,
    planUsers: async () =>
      (await sql`SELECT plan, count(*)::int AS users FROM users GROUP BY plan`) as { plan: string | null; users: number }[],
    async deletePlanUnused(name) {
      const gone =
        await sql`DELETE FROM plans WHERE name = ${name} AND NOT EXISTS (SELECT 1 FROM users WHERE plan = ${name}) RETURNING name`;
      if (gone.length === 1) return { deleted: true, users: 0 };
      const [r] = (await sql`SELECT count(*)::int AS n FROM users WHERE plan = ${name}`) as { n: number }[];
      return { deleted: false, users: r?.n ?? 0 };
    },
    setUserPlan: async (id, plan) => (await sql`UPDATE users SET plan = ${plan} WHERE id = ${id} RETURNING id`).length === 1,
    setAdmin: async (id, admin) => (await sql`UPDATE users SET admin = ${admin} WHERE id = ${id} RETURNING id`).length === 1,
    idsByEmail: async (email) =>
      ((await sql`SELECT id FROM users WHERE lower(email) = lower(${email}) ORDER BY id`) as { id: string }[]).map((r) => r.id),
    async searchUsers(text, limit, offset, now) {
      const users =
        limit > 0
          ? ((await sql`SELECT ${USER_COLUMNS(sql)},
                (SELECT i.name FROM identities i WHERE i.user_id = u.id ORDER BY i.last_sign_in_at DESC LIMIT 1) AS name,
                (SELECT count(*)::int FROM tokens t WHERE t.user_id = u.id AND t.revoked_at IS NULL AND t.expires_at > ${now}) AS "liveTokens"
              FROM users u LEFT JOIN plans p ON p.name = coalesce(u.plan, 'free')
              WHERE ${match(text)} ORDER BY u.id COLLATE "C" LIMIT ${limit} OFFSET ${offset}`) as UserSummary[])
          : [];
      const [c] = (await sql`SELECT count(*)::int AS n FROM users u WHERE ${match(text)}`) as { n: number }[];
      return { users, total: c?.n ?? 0 };
    },
    userSummary: async (id, now) =>
      (
        (await sql`SELECT ${USER_COLUMNS(sql)},
            (SELECT i.name FROM identities i WHERE i.user_id = u.id ORDER BY i.last_sign_in_at DESC LIMIT 1) AS name,
            (SELECT count(*)::int FROM tokens t WHERE t.user_id = u.id AND t.revoked_at IS NULL AND t.expires_at > ${now}) AS "liveTokens"
          FROM users u LEFT JOIN plans p ON p.name = coalesce(u.plan, 'free') WHERE u.id = ${id}`) as UserSummary[]
      )[0] ?? null,
    revokeAll: async (userId, now) =>
      (
        (await sql`UPDATE tokens SET revoked_at = ${now} WHERE user_id = ${userId} AND revoked_at IS NULL AND expires_at > ${now}
          RETURNING jti`) as { jti: string }[]
      ).map((r) => r.jti),
    async writeAudit(e) {
      await sql`INSERT INTO admin_audit (ts, actor, action, target, before, after)
        VALUES (${e.ts}, ${e.actor}, ${e.action}, ${e.target}, ${e.before}, ${e.after})`;
    },
    // Only the filters given, so each can use its index (id, (target, id), (actor, id)); an
    // `x IS NULL OR …` form scanned the whole log for a page (130-160 ms at a million rows). ORDER
    // BY the column, not the float8 output named like it, which sorted every row (540 ms).
    audit: async (f) =>
      (await sql`SELECT id::float8 AS id, ts::float8 AS ts, actor, action, target, before, after FROM admin_audit
        WHERE true ${f.beforeId === undefined ? sql`` : sql`AND id < ${f.beforeId}`}
          ${f.target === undefined ? sql`` : sql`AND target = ${f.target}`}
          ${f.actor === undefined ? sql`` : sql`AND actor = ${f.actor}`}
        ORDER BY admin_audit.id DESC LIMIT ${f.limit}`) as AuditRecord[],
    user: async (id) =>
      (
        (await sql`SELECT ${USER_COLUMNS(sql)} FROM users u LEFT JOIN plans p ON p.name = coalesce(u.plan, 'free')
          WHERE u.id = ${id}`) as UserRecord[]
      )[0] ?? null,
    insertUser: async (id, email, now) =>
      (await sql`INSERT INTO users (id, email, created_at) VALUES (${id}, ${email}, ${now}) ON CONFLICT DO NOTHING RETURNING id`).length ===
      1,
    setDisabled: async (id, disabled) => (await sql`UPDATE users SET disabled = ${disabled} WHERE id = ${id} RETURNING id`).length === 1,
    setLimits: async (id, limits) =>
      (limits === "reset"
        ? await sql`UPDATE users SET per_minute = NULL, per_day = NULL WHERE id = ${id} RETURNING id`
        : await sql`UPDATE users SET per_minute = coalesce(${limits.perMinute}::int, per_minute),
            per_day = coalesce(${limits.perDay}::int, per_day) WHERE id = ${id} RETURNING id`
      ).length === 1,
    revoke: async (jti, now) =>
      (await sql`UPDATE tokens SET revoked_at = ${now} WHERE jti = ${jti} AND revoked_at IS NULL RETURNING jti`).length === 1,
    revokeUnknown: async (jti, now) =>
      (
        await sql`INSERT INTO tokens (jti, user_id, issued_at, expires_at, revoked_at) VALUES (${jti}, '', 0, 0, ${now})
          ON CONFLICT DO NOTHING RETURNING jti`
      ).length === 1,
  };
}
