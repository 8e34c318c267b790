/**
 * The migrations, embedded as text so that the single compiled binary carries them.
 * Every entry of db/sqlite/migrations/meta/_journal.json must be listed here (a test checks it).
 */
import init from "./migrations/0000_init.sql" with { type: "text" };
import usageDays from "./migrations/0001_usage_days.sql" with { type: "text" };
import dashboardSessions from "./migrations/0002_dashboard_sessions.sql" with { type: "text" };
import reconcileAndCounts from "./migrations/0003_reconcile_and_counts.sql" with { type: "text" };
import logIndexesAndBoots from "./migrations/0004_log_indexes_and_boots.sql" with { type: "text" };
import requestLogRowid from "./migrations/0005_request_log_rowid.sql" with { type: "text" };
import spentSignIns from "./migrations/0006_spent_sign_ins.sql" with { type: "text" };
import symbolMetadata from "./migrations/0007_symbol_metadata.sql" with { type: "text" };
import operatorPlansAdminAudit from "./migrations/0008_operator_plans_admin_audit.sql" with { type: "text" };
import adminAuditActorIndex from "./migrations/0009_admin_audit_actor_index.sql" with { type: "text" };

export interface Migration {
  tag: string;
  sql: string;
}

/** A row of a database's `__migrations` table (both databases): which migration, applied when (UTC ms). */
export interface MigrationRecord {
  tag: string;
  appliedAt: number;
}

export const MIGRATIONS: Migration[] = [
  { tag: "0000_init", sql: init },
  { tag: "0001_usage_days", sql: usageDays },
  { tag: "0002_dashboard_sessions", sql: dashboardSessions },
  { tag: "0003_reconcile_and_counts", sql: reconcileAndCounts },
  { tag: "0004_log_indexes_and_boots", sql: logIndexesAndBoots },
  { tag: "0005_request_log_rowid", sql: requestLogRowid },
  { tag: "0006_spent_sign_ins", sql: spentSignIns },
  { tag: "0007_symbol_metadata", sql: symbolMetadata },
  { tag: "0008_operator_plans_admin_audit", sql: operatorPlansAdminAudit },
  { tag: "0009_admin_audit_actor_index", sql: adminAuditActorIndex },
];
