/**
 * graph-stats client for TypeScript: fetch only (Node ≥ 18, Bun, Deno, browsers); types generated
 * from docs/openapi.json (src/openapi.ts).
 */
export {
  type ChartParams,
  type DemoParams,
  GraphStatsClient,
  type GraphStatsClientOptions,
  type UniverseDetail,
  type UniverseMember,
  type UniverseSummary,
  VERSION,
} from "./client.ts";
export {
  BadRequestError,
  DisconnectedError,
  type ErrorObject,
  ForbiddenError,
  GraphStatsError,
  NotFoundError,
  QuotaExceededError,
  RateLimitedError,
  ServiceUnavailableError,
  TokenExpiredError,
  UnauthorizedError,
} from "./errors.ts";
export type { components, operations, paths } from "./openapi.ts";
export { CHART_PARAMS, DEMO_PARAMS } from "./params.ts";
export {
  ChartResult,
  type CorrMatrix,
  type CorrMatrixAt,
  type DatedGraph,
  type EdgeRow,
  type Graph,
  type GraphStats,
  type RateLimit,
  Result,
  type Spectrum,
  type SpectrumRow,
  type TidyRow,
} from "./result.ts";
