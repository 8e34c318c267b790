/**
 * The PostgreSQL migrations, embedded as text so that the single compiled binary carries them.
 * Every entry of db/pg/migrations/meta/_journal.json must be listed here (a test checks it).
 */
import init from "./migrations/0000_init.sql" with { type: "text" };
import logIndexesAndBoots from "./migrations/0001_log_indexes_and_boots.sql" with { type: "text" };
import spentSignIns from "./migrations/0002_spent_sign_ins.sql" with { type: "text" };
import symbolMetadata from "./migrations/0003_symbol_metadata.sql" with { type: "text" };
import operatorPlansAdminAudit from "./migrations/0004_operator_plans_admin_audit.sql" with { type: "text" };
import adminAuditActorIndex from "./migrations/0005_admin_audit_actor_index.sql" with { type: "text" };
import type { Migration } from "../sqlite/migrations.ts";

export const PG_MIGRATIONS: Migration[] = [
  { tag: "0000_init", sql: init },
  { tag: "0001_log_indexes_and_boots", sql: logIndexesAndBoots },
  { tag: "0002_spent_sign_ins", sql: spentSignIns },
  { tag: "0003_symbol_metadata", sql: symbolMetadata },
  { tag: "0004_operator_plans_admin_audit", sql: operatorPlansAdminAudit },
  { tag: "0005_admin_audit_actor_index", sql: adminAuditActorIndex },
];
