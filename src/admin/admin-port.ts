/**
 * What each database implements for the operator's side (admin-policy.ts): plans, the plan and
 * admin flag of a user, finding users, revoking a user's tokens, and the admin audit log — its
 * statements, none of the rules — and a transaction to run an action and its audit entry in.
 * SQLite answers synchronously, PostgreSQL with promises.
 */
import type { Maybe } from "../metering/meter-port.ts";
import type { UserRecord } from "../auth/auth-store.ts";

export interface PlanRow {
  name: string;
  perMinute: number;
  perDay: number;
  /** Epoch ms. */
  updatedAt: number;
}

/** A user as the console and `user list|show` see it: the record, its sign-in name and its live tokens. */
export interface UserSummary extends UserRecord {
  /** The name its identity provider gave at its latest sign-in, if it signed in. */
  name: string | null;
  liveTokens: number;
}

export interface AuditEntry {
  ts: number;
  /** `cli:<os user>` or `console:<user id>`. */
  actor: string;
  /** Dotted: `plan.create`, `user.limits`, `user.disable`, `token.revoke`, … */
  action: string;
  /** The plan's name, the user's id or the token's jti. */
  target: string;
  /** JSON of the record before and after; null where it did not exist. */
  before: string | null;
  after: string | null;
}

export interface AuditRecord extends AuditEntry {
  id: number;
}

export interface AuditFilter {
  /** Newest first, ids below this one (the next page). */
  beforeId?: number;
  target?: string;
  actor?: string;
  limit: number;
}

/** The statements, on the pool or inside one transaction (AdminPort.inTransaction). */
export interface AdminStatements {
  plans(): Maybe<PlanRow[]>;
  plan(name: string): Maybe<PlanRow | null>;
  /** Inserts unless the name exists; true when inserted. */
  insertPlan(row: PlanRow): Maybe<boolean>;
  /** Updates an existing plan; null keeps a field. True when it existed. */
  updatePlan(name: string, perMinute: number | null, perDay: number | null, now: number): Maybe<boolean>;
  /** Users per plan (null: `free`), plans without users left out. */
  planUsers(): Maybe<{ plan: string | null; users: number }[]>;
  /** Deletes the plan unless some user is on it; the users on it (0 when deleted or absent) and whether a row went. */
  deletePlanUnused(name: string): Maybe<{ deleted: boolean; users: number }>;
  /** Sets the user's plan (null: `free`); false when the user does not exist. */
  setUserPlan(id: string, plan: string | null): Maybe<boolean>;
  setAdmin(id: string, admin: boolean): Maybe<boolean>;
  /** Users whose email equals `email`, ignoring case. */
  idsByEmail(email: string): Maybe<string[]>;
  /**
   * Users whose id, email or sign-in name contains `text` (ignoring case; every user when empty),
   * by id, from `offset`; with the count of all that match.
   */
  searchUsers(text: string, limit: number, offset: number, now: number): Maybe<{ users: UserSummary[]; total: number }>;
  /** One user as searchUsers lists it, or null. */
  userSummary(id: string, now: number): Maybe<UserSummary | null>;
  /** Revokes every token of the user not yet revoked; their jtis. */
  revokeAll(userId: string, now: number): Maybe<string[]>;
  writeAudit(entry: AuditEntry): Maybe<void>;
  audit(filter: AuditFilter): Maybe<AuditRecord[]>;
  // The user and token writes of an action, as src/auth/auth-port.ts's, here so that they share its transaction.
  user(id: string): Maybe<UserRecord | null>;
  /** Inserts the user unless the id exists. */
  insertUser(id: string, email: string | null, now: number): Maybe<boolean>;
  setDisabled(id: string, disabled: boolean): Maybe<boolean>;
  /** Sets the limits; null keeps a field's value (`reset`: both become null). */
  setLimits(id: string, limits: { perMinute: number | null; perDay: number | null } | "reset"): Maybe<boolean>;
  /** Sets revoked_at on a minted token not yet revoked. */
  revoke(jti: string, now: number): Maybe<boolean>;
  /** Inserts a revoked row for a jti not minted here (user "", times 0) unless the jti exists. */
  revokeUnknown(jti: string, now: number): Maybe<boolean>;
}

export interface AdminPort extends AdminStatements {
  /**
   * Runs `write` in one transaction: an action's writes and its audit entry are all kept or none.
   * On SQLite `write` must answer synchronously (a rule run by src/market/rule.ts's `run`).
   */
  inTransaction<T>(write: (tx: AdminStatements) => Maybe<T>): Maybe<T>;
}
