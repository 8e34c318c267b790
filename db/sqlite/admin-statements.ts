/**
 * The AdminStore's statements on SQLite (src/admin/admin-port.ts): plans, a user's plan and admin
 * flag, the users search, revoking a user's tokens, and the admin audit log. Raw prepared
 * statements, parameterised; a search's pattern escapes LIKE's wildcards. An action's transaction is
 * BEGIN IMMEDIATE around its synchronous statements: none stays open across an await.
 */
import type { Database } from "bun:sqlite";
import type { AdminPort, AuditFilter, AuditRecord, PlanRow, UserSummary } from "../../src/admin/admin-port.ts";
import { synchronously } from "../../src/market/rule.ts";
import { USER_COLUMNS, USER_FROM, type UserRow, userOf } from "./auth-statements.ts";

/** `%text%` with LIKE's wildcards and the escape character escaped (ESCAPE '\'). */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type SummaryRow = UserRow & { name: string | null; liveTokens: number };

export function sqliteAdminPort(sqlite: Database): AdminPort {
  const PLAN = "name, per_minute AS perMinute, per_day AS perDay, updated_at AS updatedAt";
  const plans = sqlite.prepare<PlanRow, []>(`SELECT ${PLAN} FROM plans ORDER BY name`);
  const plan = sqlite.prepare<PlanRow, [string]>(`SELECT ${PLAN} FROM plans WHERE name = ?`);
  const insertPlan = sqlite.prepare<{ name: string }, [string, number, number, number]>(
    "INSERT INTO plans (name, per_minute, per_day, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING name",
  );
  const updatePlan = sqlite.prepare<{ name: string }, [number | null, number | null, number, string]>(
    "UPDATE plans SET per_minute = coalesce(?1, per_minute), per_day = coalesce(?2, per_day), updated_at = ?3 WHERE name = ?4 RETURNING name",
  );
  const planUsers = sqlite.prepare<{ plan: string | null; users: number }, []>("SELECT plan, count(*) AS users FROM users GROUP BY plan");
  const usersOn = sqlite.prepare<{ n: number }, [string]>("SELECT count(*) AS n FROM users WHERE plan = ?");
  const deletePlan = sqlite.prepare<{ name: string }, [string]>(
    "DELETE FROM plans WHERE name = ?1 AND NOT EXISTS (SELECT 1 FROM users WHERE plan = ?1) RETURNING name",
  );
  const setPlan = sqlite.prepare<{ id: string }, [string | null, string]>("UPDATE users SET plan = ? WHERE id = ? RETURNING id");
  const setAdmin = sqlite.prepare<{ id: string }, [number, string]>("UPDATE users SET admin = ? WHERE id = ? RETURNING id");
  const byEmail = sqlite.prepare<{ id: string }, [string]>("SELECT id FROM users WHERE email = ?1 COLLATE NOCASE ORDER BY id");
  // The name of the user's most recent sign-in; live tokens counted per row shown (a page, not the table).
  const SUMMARY = `SELECT ${USER_COLUMNS},
      (SELECT i.name FROM identities i WHERE i.user_id = u.id ORDER BY i.last_sign_in_at DESC LIMIT 1) AS name,
      (SELECT count(*) FROM tokens t WHERE t.user_id = u.id AND t.revoked_at IS NULL AND t.expires_at > ?1) AS liveTokens
    FROM ${USER_FROM}`;
  const MATCH = `(?2 = '' OR u.id LIKE ?3 ESCAPE '\\' OR u.email LIKE ?3 ESCAPE '\\'
      OR EXISTS (SELECT 1 FROM identities i WHERE i.user_id = u.id AND i.name LIKE ?3 ESCAPE '\\'))`;
  const search = sqlite.prepare<SummaryRow, [number, string, string, number, number]>(
    `${SUMMARY} WHERE ${MATCH} ORDER BY u.id LIMIT ?4 OFFSET ?5`,
  );
  const one = sqlite.prepare<SummaryRow, [number, string]>(`${SUMMARY} WHERE u.id = ?2`);
  const count = sqlite.prepare<{ n: number }, [number, string, string]>(`SELECT count(*) AS n FROM users u WHERE ?1 = ?1 AND ${MATCH}`);
  const revokeAll = sqlite.prepare<{ jti: string }, [number, string]>(
    "UPDATE tokens SET revoked_at = ?1 WHERE user_id = ?2 AND revoked_at IS NULL AND expires_at > ?1 RETURNING jti",
  );
  const insertAudit = sqlite.prepare<unknown, [number, string, string, string, string | null, string | null]>(
    "INSERT INTO admin_audit (ts, actor, action, target, before, after) VALUES (?, ?, ?, ?, ?, ?)",
  );
  // Only the filters given, so each can use its index (the rowid, (target, id), (actor, id)); an
  // `?1 IS NULL OR …` form scanned the whole log for a page (130-160 ms at a million rows).
  // sqlite.query() keeps each of the eight statements compiled (strict: bound without the $).
  const audit = (f: AuditFilter): AuditRecord[] => {
    const where = [
      f.beforeId === undefined ? "" : "id < $before",
      f.target === undefined ? "" : "target = $target",
      f.actor === undefined ? "" : "actor = $actor",
    ].filter(Boolean);
    const params: Record<string, string | number> = { limit: f.limit };
    if (f.beforeId !== undefined) params.before = f.beforeId;
    if (f.target !== undefined) params.target = f.target;
    if (f.actor !== undefined) params.actor = f.actor;
    return sqlite
      .query<AuditRecord, Record<string, string | number>>(
        `SELECT id, ts, actor, action, target, before, after FROM admin_audit ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id DESC LIMIT $limit`,
      )
      .all(params);
  };
  const summaryOf = ({ name, liveTokens, ...row }: SummaryRow): UserSummary => ({ ...userOf(row), name, liveTokens });
  const userById = sqlite.prepare<UserRow, [string]>(`SELECT ${USER_COLUMNS} FROM ${USER_FROM} WHERE u.id = ?`);
  const insertUser = sqlite.prepare<{ id: string }, [string, string | null, number]>(
    "INSERT INTO users (id, email, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
  );
  const setDisabled = sqlite.prepare<{ id: string }, [number, string]>("UPDATE users SET disabled = ? WHERE id = ? RETURNING id");
  const setLimits = sqlite.prepare<{ id: string }, [number | null, number | null, string]>(
    "UPDATE users SET per_minute = coalesce(?1, per_minute), per_day = coalesce(?2, per_day) WHERE id = ?3 RETURNING id",
  );
  const resetLimits = sqlite.prepare<{ id: string }, [string]>(
    "UPDATE users SET per_minute = NULL, per_day = NULL WHERE id = ? RETURNING id",
  );
  const revoke = sqlite.prepare<{ jti: string }, [number, string]>(
    "UPDATE tokens SET revoked_at = ?1 WHERE jti = ?2 AND revoked_at IS NULL RETURNING jti",
  );
  const revokeUnknown = sqlite.prepare<{ jti: string }, [string, number]>(
    "INSERT INTO tokens (jti, user_id, issued_at, expires_at, revoked_at) VALUES (?1, '', 0, 0, ?2) ON CONFLICT DO NOTHING RETURNING jti",
  );

  const port: AdminPort = {
    plans: () => plans.all(),
    plan: (name) => plan.get(name),
    insertPlan: (r) => insertPlan.all(r.name, r.perMinute, r.perDay, r.updatedAt).length === 1,
    updatePlan: (name, perMinute, perDay, now) => updatePlan.all(perMinute, perDay, now, name).length === 1,
    planUsers: () => planUsers.all(),
    deletePlanUnused(name) {
      if (deletePlan.all(name).length === 1) return { deleted: true, users: 0 };
      return { deleted: false, users: usersOn.get(name)?.n ?? 0 };
    },
    setUserPlan: (id, p) => setPlan.all(p, id).length === 1,
    setAdmin: (id, admin) => setAdmin.all(admin ? 1 : 0, id).length === 1,
    idsByEmail: (email) => byEmail.all(email).map((r) => r.id),
    searchUsers(text, limit, offset, now) {
      const pattern = containsPattern(text);
      const users = limit > 0 ? search.all(now, text, pattern, limit, offset).map(summaryOf) : [];
      return { users, total: count.get(now, text, pattern)?.n ?? 0 };
    },
    userSummary(id, now) {
      const row = one.get(now, id);
      return row ? summaryOf(row) : null;
    },
    revokeAll: (userId, now) => revokeAll.all(now, userId).map((r) => r.jti),
    writeAudit: (e) => void insertAudit.run(e.ts, e.actor, e.action, e.target, e.before, e.after),
    audit,
    user: (id) => {
      const row = userById.get(id);
      return row ? userOf(row) : null;
    },
    insertUser: (id, email, now) => insertUser.all(id, email, now).length === 1,
    setDisabled: (id, disabled) => setDisabled.all(disabled ? 1 : 0, id).length === 1,
    setLimits: (id, limits) => (limits === "reset" ? resetLimits.all(id) : setLimits.all(limits.perMinute, limits.perDay, id)).length === 1,
    revoke: (jti, now) => revoke.all(now, jti).length === 1,
    revokeUnknown: (jti, now) => revokeUnknown.all(jti, now).length === 1,
    // The statements above are this connection's, so inside the transaction they are its statements.
    inTransaction: (write) => sqlite.transaction(() => synchronously(write(port))).immediate(),
  };
  return port;
}
