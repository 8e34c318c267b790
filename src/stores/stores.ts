/**
 * Every store the service uses, over one database (README.md § PostgreSQL): on SQLite (the default)
 * everything over the one file; with a PostgreSQL URL everything over one pool shared by every
 * instance. Routes and commands see only these interfaces, never which database answers.
 */
import type { AdminStore } from "../admin/admin-store.ts";
import type { AuthStore } from "../auth/index.ts";
import type { AccountStore } from "../dashboard/account-store.ts";
import type { SessionStore } from "../dashboard/session-store.ts";
import type { Logger } from "../logger.ts";
import type { MarketStore } from "../market/store.ts";
import type { Meter, Reconciled } from "../metering/index.ts";
import type { UsageExport } from "../metering/usage-export.ts";
import type { UsageOverview } from "../metering/usage-overview.ts";
import type { UsageReport } from "../metering/usage-report.ts";

export interface Stores {
  kind: "sqlite" | "postgres";
  auth: AuthStore;
  /** The operator's actions (plans, admins, user search), each written to the admin audit log. */
  admin: AdminStore;
  sessions: SessionStore;
  account: AccountStore;
  meter: Meter;
  /** Bars, universes and the data version: the SQLite file, or the shared PostgreSQL. */
  market: MarketStore;
  /** A cheap liveness probe; PostgreSQL's answers at once from its last ping (see pgHealth). */
  checkDatabase(): boolean | Promise<boolean>;
  /** Database calls in flight (for /metrics). */
  connectionsInUse(): number;
  /** PostgreSQL only: the server's max_connections and its client connections now, from every client (for /metrics). */
  serverConnections?: { max: number; open(): Promise<number | null> };
  /** Usage per user and day (the CLI's `usage`). */
  usage: UsageReport;
  /** The console's overview: requests per day, top users, refusals per code, refunds, 5xx, compute time. */
  usageOverview: UsageOverview;
  /** Counted requests as CloudEvents or CSV, streamed (the billing export). */
  usageExport: UsageExport;
  reconcile(bootId: string): Promise<Reconciled>;
  /** Flushes and prunes in the background; `stop` writes what is still gathered. */
  startMaintenance(retentionDays: number, logger: Logger): { stop(): Promise<void> };
  close(): Promise<void>;
}
