/**
 * The operator's actions, each written to the admin audit log (who, what, when, before/after), the
 * same from the CLI and the console (docs/operator.md). Its rules are written once
 * (admin-policy.ts); each database supplies only its statements (db/sqlite/admin-statements.ts,
 * db/pg/admin-statements.ts). A refusal is a StatusError (400 bad input, 404 unknown, 409 conflict).
 */
import type { RevokeOutcome, UserRecord } from "../auth/auth-store.ts";
import type { Limits } from "../metering/windows.ts";
import type { AuditFilter, AuditRecord, UserSummary } from "./admin-port.ts";
import type { Plan } from "./plans.ts";

export type { AuditFilter, AuditRecord, UserSummary } from "./admin-port.ts";
export type { Plan } from "./plans.ts";

/** A user's own limits as set: a number, null for the plan's, absent to keep. */
export interface OwnLimits {
  perMinute?: number | null;
  perDay?: number | null;
}

export interface AdminStore {
  /** Every plan, `free` first (its row, or `defaults`), with the number of users on each. */
  plans(defaults: Limits): Promise<Plan[]>;
  /** The limits of the default plan's row, or null while it has none. */
  freePlan(): Promise<Limits | null>;
  /** 409 when the plan exists. */
  createPlan(actor: string, name: string, limits: Limits): Promise<Plan>;
  /** Changes the given fields; 404 when the plan does not exist (`free` always does: its first set starts from `defaults`). */
  setPlan(actor: string, name: string, limits: Partial<Limits>, defaults: Limits): Promise<Plan>;
  /** 400 for `free`, 404 when absent, 409 while users are on it. */
  deletePlan(actor: string, name: string): Promise<void>;
  /** A user by id, or by the e-mail it signed in with; 404 when none, 400 when an e-mail names several. */
  resolveUser(ref: string): Promise<UserRecord>;
  /** 404 for an unknown plan. */
  assignPlan(actor: string, userId: string, plan: string): Promise<UserRecord>;
  /** Omitted fields keep their value, a null field goes back to the plan's, null resets both. */
  setLimits(actor: string, userId: string, limits: OwnLimits | null): Promise<UserRecord>;
  setDisabled(actor: string, userId: string, disabled: boolean): Promise<UserRecord>;
  setAdmin(actor: string, userId: string, admin: boolean): Promise<UserRecord>;
  /** `created` false when the id exists (nothing is written then). */
  createUser(actor: string, id: string, email: string | undefined): Promise<{ created: boolean; user: UserRecord }>;
  /** Revokes every live token of the user; their jtis. */
  revokeTokensOf(actor: string, userId: string): Promise<string[]>;
  revokeToken(actor: string, jti: string): Promise<RevokeOutcome>;
  /** Tokens minted by the CLI, recorded as one entry per user. */
  recordTokensIssued(actor: string, userId: string, jtis: string[]): Promise<void>;
  /** One user with its sign-in name and live tokens; 404 when absent. */
  userSummary(id: string): Promise<UserSummary>;
  searchUsers(text: string, page: { limit: number; offset: number }): Promise<{ users: UserSummary[]; total: number }>;
  audit(filter: AuditFilter): Promise<AuditRecord[]>;
}
