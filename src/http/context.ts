/**
 * What every route needs from the outside, injected so tests control time, the database and
 * failures. Built for real by server.ts.
 */
import type { Server } from "bun";
import type { Clock } from "../clock.ts";
import type { Logger } from "../logger.ts";
import type { ChartService } from "../compute/chart-service.ts";
import type { DemoService } from "./demo-service.ts";
import type { UniverseCatalogue } from "../market/catalogue-cache.ts";
import type { AuthGate } from "./auth-gate.ts";
import type { Meter } from "../metering/meter.ts";
import type { UsageExport } from "../metering/usage-export.ts";
import type { LastKnown } from "../metering/last-known.ts";
import type { Metrics } from "./metrics.ts";
import type { UnavailableReason } from "./unavailable-reason.ts";
import type { ClientAddress } from "./client-address.ts";

export interface AppDeps {
  clock: Clock;
  logger: Logger;
  version: string;
  /** The commit and schema version /health reports (absent in tests that build their own deps). */
  build?: { commit: string; schema: string };
  /** Epoch ms at which the process started (for uptime_s). */
  startedAt: number;
  defaultUniverse: string;
  corsOrigins: string[];
  auth: AuthGate;
  meter: Meter;
  /** The last meter state seen per user: rate-limit headers when the database cannot be read. */
  lastKnown?: LastKnown;
  /** The user a bearer token names, from its signature alone (no database): who a 503 is for. */
  identify?(header: string | null): Promise<string | null>;
  chart: ChartService;
  /** The stored universes and their coverage, per data version (GET /v1/universes, /metrics' freshness). */
  universes: UniverseCatalogue;
  demo: DemoService;
  /** Cheap liveness probe of the database; false or a throw → 503. Sync on SQLite; PostgreSQL's may await a shared ping. */
  checkDatabase(): boolean | Promise<boolean>;
  /** True once shutdown began: new requests get 503. Asked once per request (app.ts), which the drain counts. */
  isShuttingDown(): boolean;
  /** Prometheus metrics (/metrics); absent in tests that do not need them. */
  metrics?: Metrics;
  /** The client's address for limits and allow lists: the peer, or behind a trusted proxy the client it names (client-address.ts). */
  clientAddress?: ClientAddress;
  /** Who may read /metrics (client address → allowed). */
  metricsAllowed?: (ip: string | null) => boolean;
  /** The address users reach the service at (no trailing slash): the /docs page's examples use it, /metrics accepts its host. */
  publicUrl?: () => string;
  /** The billing export (routes/admin-export.ts); absent in tests that do not need it. */
  usageExport?: UsageExport;
  /** The dashboard's pages and actions (src/dashboard); none in tests that do not need them. */
  dashboard?: DashboardRoute[];
}

/** A page or action the app mounts without knowing what it does (the dashboard's, src/dashboard/routes.ts). */
export interface DashboardRoute {
  method: "GET" | "POST";
  path: string;
  handler: DashboardHandler;
}

export type DashboardHandler = (request: Request, state: RequestState) => Response | Promise<Response>;

/** Per-request state shared between the app's hooks and the route. */
export interface RequestState {
  requestId: string;
  start: number;
  userId: string | null;
  /** The route's path (from the router, so no URL is parsed per request). */
  path: string;
  /** The router's parameters of the route's path (`:jti`), decoded. */
  params: Record<string, string>;
  /** Headers every response of this request carries: X-Request-Id and CORS. */
  base: Record<string, string>;
  /** The listening server (null through app.handle): a route lifts the idle timeout of a long answer. */
  server: Server<unknown> | null;
  /** Why this request is answered 503, set where that is decided; app.ts counts it ("other" when unset). */
  unavailable?: UnavailableReason;
}
