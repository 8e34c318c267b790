/** Metering: the pure window arithmetic, the headers and messages, and the meter on either database. */
export {
  decide,
  peekState,
  utcDayStart,
  windowOf,
  MINUTE_MS,
  DAY_MS,
  type MinuteWindow,
  type Limits,
  type MeterState,
  type DenialCode,
  type WindowInput,
  type WindowDecision,
} from "./windows.ts";
export { rateLimitHeaders, denialMessage } from "./headers.ts";
export type { Meter, AdmitRequest, AdmitResult, UnmeteredEntry } from "./meter.ts";
export { createSqliteMeter } from "./meters.ts";
export { createPgMeter } from "./meters.ts";
export { newBootId, bootIsGone } from "./boot.ts";
export { reconcileUnanswered, STALE_OPEN_MS, type Reconciled } from "./reconcile.ts";
export { sqliteReconcilePort } from "../../db/sqlite/reconcile-statements.ts";
export { redactQuery } from "./redact-query.ts";
export { PRUNE_MS, startAuditMaintenance, type AuditMaintenance } from "./maintenance.ts";
export { pruneAudit, DEFAULT_AUDIT_RETENTION_DAYS, type Pruned } from "./retention.ts";
export { sqliteRetentionPort } from "../../db/sqlite/retention-statements.ts";
export {
  isBusy,
  databaseError,
  writeFailureOf,
  DatabaseBusyError,
  DatabaseStorageError,
  DatabaseUnavailableError,
} from "../../db/errors.ts";
export { createLastKnown, type LastKnown } from "./last-known.ts";
export { pgReconcilePort } from "../../db/pg/reconcile-statements.ts";
export { pgRetentionPort } from "../../db/pg/retention-statements.ts";
export { createUsageReport, type UsageReport, type UsageRow } from "./usage-report.ts";
export { createUsageOverview, type UsageOverview } from "./usage-overview.ts";
export { sqliteUsagePort } from "../../db/sqlite/usage-statements.ts";
export { pgUsagePort } from "../../db/pg/usage-statements.ts";
