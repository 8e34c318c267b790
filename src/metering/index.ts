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
export { createSqliteMeter } from "./meter-sqlite.ts";
export { createPgMeter } from "./meter-pg.ts";
export { newBootId, bootIsGone } from "./boot.ts";
export { reconcileUnanswered, STALE_OPEN_MS, type Reconciled } from "./reconcile.ts";
export { sqliteReconcilePort } from "./reconcile-sqlite.ts";
export { redactQuery } from "./redact-query.ts";
export { PRUNE_MS, startAuditMaintenance, type AuditMaintenance } from "./maintenance.ts";
export { pruneAudit, DEFAULT_AUDIT_RETENTION_DAYS, type Pruned } from "./retention.ts";
export { sqliteRetentionPort } from "./retention-sqlite.ts";
export {
  isBusy,
  databaseError,
  writeFailureOf,
  DatabaseBusyError,
  DatabaseStorageError,
  DatabaseUnavailableError,
} from "../../db/errors.ts";
export { createLastKnown, type LastKnown } from "./last-known.ts";
export { pgReconcilePort } from "./reconcile-pg.ts";
export { pgRetentionPort } from "./retention-pg.ts";
export { createUsageReport, type UsageReport, type UsageRow } from "./usage-report.ts";
export { sqliteUsagePort } from "./usage-sqlite.ts";
export { pgUsagePort } from "./usage-pg.ts";
