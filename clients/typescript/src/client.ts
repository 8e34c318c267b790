/** GraphStatsClient: one fetch per call, limits waited out, errors as classes. Runs wherever fetch does. */
import {
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
import type { components, operations } from "./openapi.ts";
import { CHART_PARAMS, CHART_PATH, DEMO_PARAMS, DEMO_PATH } from "./params.ts";
import { checkNames, encodeQuery, type Value } from "./query.ts";
import { ChartResult, Result } from "./result.ts";

type Query = NonNullable<operations["getChart"]["parameters"]["query"]>;
type Metric = components["schemas"]["SnapshotData"]["metrics"][number];
type DateLike = string | Date;

/** The chart's parameters (docs/api.md) as values: arrays for lists, Dates or YYYY-MM-DD, booleans. */
export type ChartParams = Omit<Query, "metrics" | "symbols" | "include_graph" | "asof" | "start" | "end"> & {
  metrics?: readonly Metric[] | string;
  symbols?: readonly string[] | string;
  include_graph?: boolean | Query["include_graph"];
  asof?: DateLike;
  start?: DateLike;
  end?: DateLike;
};
export type DemoParams = NonNullable<operations["getDemoChart"]["parameters"]["query"]>;

export interface UniverseSummary {
  name: string;
  symbols: number;
  intervals: string[];
  first_bar: string | null;
  last_bar: string | null;
  data_source: string;
  data_version: number;
}
export interface UniverseMember {
  symbol: string;
  name: string | null;
  sector: string | null;
  industry: string | null;
  coverage: Record<string, { first: string; last: string; bars: number; missing: number }>;
}
export type UniverseDetail = Omit<UniverseSummary, "symbols"> & { symbols: UniverseMember[]; [extra: string]: unknown };

export interface GraphStatsClientOptions {
  /** Default: $GRAPH_STATS_URL. */
  baseUrl?: string;
  /** Default: $GRAPH_STATS_TOKEN. */
  token?: string;
  /** Wait out RATE_LIMITED and 503 (Retry-After ≤ maxWait) and retry once. Default true. */
  wait?: boolean;
  /** Seconds; default 120. */
  maxWait?: number;
  /** Per request; default 60 000. */
  timeoutMs?: number;
  /** Default: the global fetch. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** How the client waits (ms); tests act at that moment instead. Default: a timer. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * What chart() names are checked against: this graph-stats's (default, from its OpenAPI
   * document), "server" (the server's own /openapi.json, read once: another implementation), or a list.
   */
  parameters?: "server" | readonly string[];
}

const env = (name: string): string | undefined =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];

export const VERSION = "0.1.0";

export class GraphStatsClient {
  readonly baseUrl: string;
  readonly token: string | undefined;
  readonly wait: boolean;
  readonly maxWait: number;
  readonly timeoutMs: number;
  private readonly fetchImpl: (input: string, init: RequestInit) => Promise<Response>;
  private readonly sleep: (ms: number) => Promise<void>;
  /** HTTP requests sent by this client. */
  requestsSent = 0;
  private parameters: "server" | readonly string[];

  constructor(options: GraphStatsClientOptions = {}) {
    const baseUrl = options.baseUrl ?? env("GRAPH_STATS_URL");
    if (!baseUrl) throw new TypeError("no baseUrl: pass { baseUrl } or set GRAPH_STATS_URL");
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.token = options.token ?? env("GRAPH_STATS_TOKEN");
    this.wait = options.wait ?? true;
    this.maxWait = options.maxWait ?? 120;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.parameters = options.parameters ?? CHART_PARAMS;
  }

  /** GET /v1/graph-stats/chart (metered). */
  async chart(params: ChartParams | Record<string, Value> = {}): Promise<ChartResult> {
    if (this.parameters === "server") this.parameters = await this.servedNames();
    checkNames("chart", params, this.parameters);
    const { text, headers, body } = await this.get(CHART_PATH, encodeQuery(params as Record<string, Value>), true);
    return new ChartResult(text, headers, body as never);
  }

  /** GET /v1/demo/chart: the fixed sample answer; no token, not metered. */
  async demo(params: DemoParams = {}): Promise<ChartResult> {
    checkNames("demo", params, DEMO_PARAMS);
    const { text, headers, body } = await this.get(DEMO_PATH, encodeQuery(params as Record<string, Value>), false);
    return new ChartResult(text, headers, body as never);
  }

  /** GET /health. */
  async health(): Promise<Result<components["schemas"]["HealthEnvelope"]["data"]>> {
    const { text, headers, body } = await this.get("/health", "", false);
    return new Result(text, headers, body as never);
  }

  /** GET /v1/universes (not metered). */
  async universes(): Promise<UniverseSummary[]> {
    const { body } = await this.get("/v1/universes", "", true);
    return (body as { data: { universes: UniverseSummary[] } }).data.universes;
  }

  /** GET /v1/universes/{name} (not metered). */
  async universe(name: string): Promise<UniverseDetail> {
    if (typeof name !== "string" || name === "") throw new TypeError("universe(name): name must be a non-empty string");
    const { body } = await this.get(`/v1/universes/${encodeURIComponent(name)}`, "", true);
    return (body as { data: UniverseDetail }).data;
  }

  /** The live route's query parameters in the server's /openapi.json (public, unmetered). */
  private async servedNames(): Promise<string[]> {
    const found = await this.send("/openapi.json", "", false).catch((err) => {
      if (err instanceof NotFoundError)
        throw new GraphStatsError(`${this.baseUrl} publishes no /openapi.json: pass { parameters: [...names] } instead of "server"`, err);
      throw err;
    });
    type Param = { name?: string; in?: string; $ref?: string };
    const document = found.body as { paths?: Record<string, { get?: { parameters?: Param[] } }> } & Record<string, unknown>;
    const resolve = (p: Param): Param =>
      p.$ref
        ? (p.$ref
            .replace(/^#\//, "")
            .split("/")
            .reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], document) as Param)
        : p;
    return (document.paths?.[CHART_PATH]?.get?.parameters ?? [])
      .map(resolve)
      .filter((p) => p?.in === "query" && p.name)
      .map((p) => p.name!);
  }

  private async get(path: string, query: string, auth: boolean) {
    try {
      return await this.send(path, query, auth);
    } catch (err) {
      if (!(err instanceof RateLimitedError || err instanceof ServiceUnavailableError)) throw err;
      const delay = err.retryAfter;
      if (!this.wait || delay === null || delay > this.maxWait) throw err;
      await this.sleep(delay * 1000);
      return this.send(path, query, auth);
    }
  }

  private async send(path: string, query: string, auth: boolean): Promise<{ text: string; headers: Headers; body: unknown }> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (auth && this.token) headers.Authorization = `Bearer ${this.token}`;
    const url = `${this.baseUrl}${path}${query ? `?${query}` : ""}`;
    this.requestsSent++;
    let response: Response;
    let text: string;
    try {
      response = await this.fetchImpl(url, { method: "GET", headers, signal: AbortSignal.timeout(this.timeoutMs) });
      text = await response.text();
    } catch (err) {
      const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      throw new DisconnectedError(`GET ${path}: no answer from ${this.baseUrl} (${reason})`, { status: null });
    }
    let body: unknown = null;
    if ((response.headers.get("Content-Type") ?? "").includes("application/json")) {
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
    }
    if (response.ok) return { text, headers: response.headers, body };
    throw this.error(response.status, response.headers, body, text);
  }

  private error(status: number, headers: Headers, body: unknown, text: string): GraphStatsError {
    const list = (body as { errors?: unknown } | null)?.errors;
    const errors = Array.isArray(list) ? (list as ErrorObject[]) : [];
    const code = errors[0]?.code ?? null;
    const messages = errors.map((e) => e.message).join("; ");
    const message = `${status} ${code ?? "error"}: ${messages || text.slice(0, 200) || "no body"}`;
    const init = { status, errors, headers, body };
    switch (status) {
      case 400:
      case 422: // another implementation's parameter refusal
        return new BadRequestError(
          `${status} ${code}: ${errors.length} problem(s)\n${errors.map((e) => `  - ${e.message}`).join("\n")}`,
          init,
        );
      case 401:
        if (this.expired(errors[0])) {
          const dashboardUrl = `${this.baseUrl}/dashboard`;
          return new TokenExpiredError(`${message} — get a new token at ${dashboardUrl}`, { ...init, dashboardUrl });
        }
        return new UnauthorizedError(message, init);
      case 403:
        return new ForbiddenError(message, init);
      case 404:
        return new NotFoundError(message, init);
      case 429:
        return code === "DAILY_QUOTA_EXCEEDED" ? new QuotaExceededError(message, init) : new RateLimitedError(message, init);
      case 503:
        return new ServiceUnavailableError(message, init);
      default:
        return new GraphStatsError(message, init);
    }
  }

  /** The interface's expired-token 401 says so in its message; the token's own exp confirms it. */
  private expired(first: ErrorObject | undefined): boolean {
    if (/expired/i.test(first?.message ?? "")) return true;
    try {
      const payload = JSON.parse(atob((this.token ?? "").split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")));
      return typeof payload.exp === "number" && payload.exp * 1000 <= Date.now();
    } catch {
      return false;
    }
  }
}
