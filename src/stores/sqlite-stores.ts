/** The stores over one SQLite file (stores.ts); its liveness check sees a deleted or replaced file. */
import { statSync } from "node:fs";
import type { OpenedDb } from "../../db/sqlite/open.ts";
import { createSqliteAdminStore } from "../admin/admin-stores.ts";
import { createSqliteAuthStore } from "../auth/index.ts";
import type { Clock } from "../clock.ts";
import { createSqliteAccountStore } from "../../db/sqlite/account-statements.ts";
import { createSqliteSessionStore } from "../dashboard/session-stores.ts";
import { openMarketStore } from "../market/open-store.ts";
import {
  createSqliteMeter,
  createUsageOverview,
  createUsageReport,
  pruneAudit,
  reconcileUnanswered,
  sqliteReconcilePort,
  sqliteRetentionPort,
  sqliteUsagePort,
  startAuditMaintenance,
} from "../metering/index.ts";
import { sqliteUsageExportPort } from "../../db/sqlite/usage-export-statements.ts";
import { createUsageExport } from "../metering/usage-export.ts";
import { reuseHealthy } from "./health-cache.ts";
import type { Stores } from "./stores.ts";

/** `lockWaitMs`: how long an admission waits, off the event loop, for another process's write lock. */
export function sqliteStores(opened: OpenedDb, clock: Clock, bootId: string, checkDatabase: () => boolean, lockWaitMs?: number): Stores {
  const { sqlite } = opened;
  const meter = createSqliteMeter(sqlite, clock, bootId, { lockWaitMs });
  const auth = createSqliteAuthStore(sqlite);
  return {
    kind: "sqlite",
    auth,
    admin: createSqliteAdminStore(sqlite, auth, clock),
    sessions: createSqliteSessionStore(opened.db, clock),
    account: createSqliteAccountStore(opened.db),
    meter,
    market: openMarketStore({ kind: "sqlite", sqlite, path: opened.path }),
    usage: createUsageReport(sqliteUsagePort(sqlite)),
    usageOverview: createUsageOverview(sqliteUsagePort(sqlite)),
    usageExport: createUsageExport(sqliteUsageExportPort(sqlite), auth),
    checkDatabase,
    connectionsInUse: () => (sqlite.inTransaction ? 1 : 0),
    reconcile: (self) => reconcileUnanswered(sqliteReconcilePort(sqlite), self, clock),
    startMaintenance(retentionDays, logger) {
      return startAuditMaintenance(
        meter,
        () => pruneAudit(sqliteRetentionPort(sqlite), clock, retentionDays),
        clock,
        retentionDays,
        logger,
      );
    },
    close: async () => {},
  };
}

/** SQLite's liveness: the file must still be the one opened (deleted or replaced → writes would be lost) and answer. */
export function sqliteHealth(path: string, opened: OpenedDb): () => boolean {
  const fileIdentity = databaseIdentity(path);
  const health = opened.sqlite.query("SELECT 1 AS ok");
  return reuseHealthy(() => databaseIdentity(path) === fileIdentity && (health.get() as { ok: number } | null)?.ok === 1);
}

/** Device and inode of the database file ("memory" for :memory:, null when it is missing). */
function databaseIdentity(path: string): string | null {
  if (path === ":memory:") return "memory";
  try {
    const st = statSync(path);
    return `${st.dev}:${st.ino}`;
  } catch {
    return null;
  }
}
