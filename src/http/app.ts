/**
 * The Elysia app from one table of routes (the API's seven GETs, /metrics, the dashboard's pages and
 * actions): each route's CORS preflight, 405 for other methods on its path, its metrics label and the
 * 404's list come from that table; one error renderer, one JSON log line per request.
 */
import type { Server } from "bun";
import { Elysia } from "elysia";
import type { AppDeps, RequestState } from "./context.ts";
import { baseHeaders, preflightHeaders, PUBLIC, type CorsPolicy } from "./cors.ts";
import { baseMeta, errorBody, jsonResponse } from "./envelope.ts";
import { describe, HttpError, toHttpError } from "./http-error.ts";
import { requestIdFrom } from "./request-id.ts";
import { handleChart } from "./routes/chart.ts";
import { handleDemo } from "./routes/demo.ts";
import { handleDocs, handleOpenApi } from "./routes/docs.ts";
import { handleHealth } from "./routes/health.ts";
import { handleMetrics } from "./routes/metrics.ts";
import { ADMIN_EXPORT_PATH, handleAdminExport } from "./routes/admin-export.ts";
import { handleUniverse, handleUniverseList } from "./routes/universes.ts";
import { unavailableReason } from "./unavailable-reason.ts";

export const LIVE_PATH = "/v1/graph-stats/chart";
export const DEMO_PATH = "/v1/demo/chart";
export const HEALTH_PATH = "/health";
export const OPENAPI_PATH = "/openapi.json";
export const DOCS_PATH = "/docs";
export const METRICS_PATH = "/metrics";
export const UNIVERSES_PATH = "/v1/universes";
export const UNIVERSE_PATH = "/v1/universes/:name";

type Handler = (request: Request, state: RequestState) => Response | Promise<Response>;

/** A route, declared once: the app derives its handler, CORS preflight, 405, metrics label and place in the 404 from it. */
interface Route {
  method: "GET" | "POST";
  path: string;
  cors: CorsPolicy;
  /** Part of the public API: answers the CORS preflight and is named in the 404's list of routes. */
  api: boolean;
  handler: Handler;
}

/** What the router hands a route (Elysia's context, the fields used). */
interface RouterContext {
  request: Request;
  path: string;
  server?: Server<unknown> | null;
  params?: Record<string, string>;
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

export function createApp(deps: AppDeps) {
  // health.ts and demo.ts make their headers from PUBLIC once (jsonTemplate), not from state.base.
  const liveCors: CorsPolicy = { kind: "list", origins: new Set(deps.corsOrigins) };

  const newState = (
    request: Request,
    path: string,
    cors: CorsPolicy,
    server: Server<unknown> | null,
    params: Record<string, string>,
  ): RequestState => {
    const requestId = requestIdFrom(request.headers.get("x-request-id"));
    return {
      requestId,
      start: performance.now(),
      userId: null,
      path,
      params,
      base: baseHeaders(cors, request.headers, requestId),
      server,
    };
  };

  /** Renders an HttpError as the envelope, with the request's base headers. */
  const render = (request: Request, state: RequestState, e: HttpError): Response =>
    jsonResponse(
      errorBody(e.errors, baseMeta(deps.clock.now(), state.requestId)),
      e.status,
      { ...state.base, ...e.headers },
      request.headers.get("accept-encoding"),
      request.method === "HEAD",
    );

  /** `label` is the route's path as declared (`…/:jti/revoke`), never the raw one: an unknown path must not become a metrics series of its own. */
  const logRequest = (request: Request, state: RequestState, status: number, label: string) => {
    deps.metrics?.request(label, status);
    // Counted here, once per answer, wherever the 503 was decided (its reason set on the state).
    if (status === 503) deps.metrics?.unavailable(state.unavailable ?? "other");
    deps.logger.request(
      state.requestId,
      request.method,
      state.path,
      status,
      Math.round((performance.now() - state.start) * 1000),
      state.userId,
    );
  };

  /** Renders what a handler threw; only a server fault (5xx) is an error line: a 4xx is the client's, in the access line. */
  const failed = (request: Request, state: RequestState, err: unknown): Response => {
    const e = toHttpError(err, state.requestId);
    if (e.status === 503) state.unavailable ??= unavailableReason(err);
    if (e.status >= 500) deps.logger.error({ request_id: state.requestId, err: describe(err) }, "request failed");
    return render(request, state, e);
  };

  /**
   * Runs a handler with request id, CORS, shutdown refusal, error rendering and the access log.
   * A synchronous handler's response is returned as it is (no promise per request on /health).
   */
  const wrap =
    (cors: CorsPolicy, label: string, handler: Handler) =>
    ({ request, path, server, params }: RouterContext): Response | Promise<Response> => {
      const state = newState(request, path, cors, server ?? null, params ?? NO_PARAMS);
      let result: Response | Promise<Response>;
      try {
        const shuttingDown = deps.isShuttingDown();
        if (shuttingDown) state.unavailable = "shutting_down";
        result = shuttingDown
          ? render(
              request,
              state,
              new HttpError(503, "SERVICE_UNAVAILABLE", "server is shutting down; retry on another instance", {
                "Retry-After": "5",
                // The client's next request goes to a new connection, on another instance once this one closes.
                Connection: "close",
              }),
            )
          : handler(request, state);
      } catch (err) {
        result = failed(request, state, err);
      }
      if (result instanceof Response) {
        logRequest(request, state, result.status, label);
        return result;
      }
      return result.then(
        (response) => {
          logRequest(request, state, response.status, label);
          return response;
        },
        (err) => {
          const response = failed(request, state, err);
          logRequest(request, state, response.status, label);
          return response;
        },
      );
    };

  const preflight = (cors: CorsPolicy, path: string) =>
    wrap(cors, path, (request, state) => {
      const { "Access-Control-Expose-Headers": _exposed, ...allow } = preflightHeaders(cors, request.headers.get("origin"));
      return new Response(null, { status: 204, headers: { ...state.base, ...allow } });
    });

  const notAllowed = (cors: CorsPolicy, path: string, methods: string) =>
    wrap(cors, path, (request, state) =>
      render(
        request,
        state,
        new HttpError(405, "METHOD_NOT_ALLOWED", `method ${request.method} is not allowed on ${state.path}; use ${methods}`, {
          Allow: methods,
        }),
      ),
    );

  const sameOrigin: CorsPolicy = { kind: "list", origins: new Set() };
  const routes: Route[] = [
    { method: "GET", path: HEALTH_PATH, cors: PUBLIC, api: true, handler: (req, st) => handleHealth(deps, req, st) },
    { method: "GET", path: DEMO_PATH, cors: PUBLIC, api: true, handler: (req, st) => handleDemo(deps, req, st) },
    { method: "GET", path: LIVE_PATH, cors: liveCors, api: true, handler: (req, st) => handleChart(deps, req, st) },
    { method: "GET", path: UNIVERSES_PATH, cors: liveCors, api: true, handler: (req, st) => handleUniverseList(deps, req, st) },
    { method: "GET", path: UNIVERSE_PATH, cors: liveCors, api: true, handler: (req, st) => handleUniverse(deps, req, st) },
    { method: "GET", path: OPENAPI_PATH, cors: PUBLIC, api: true, handler: (req, st) => handleOpenApi(deps, req, st) },
    { method: "GET", path: DOCS_PATH, cors: PUBLIC, api: true, handler: (req, st) => handleDocs(deps, req, st) },
    { method: "GET", path: ADMIN_EXPORT_PATH, cors: sameOrigin, api: false, handler: (req, st) => handleAdminExport(deps, req, st) },
    { method: "GET", path: METRICS_PATH, cors: sameOrigin, api: false, handler: (req, st) => handleMetrics(deps, req, st) },
    ...(deps.dashboard ?? []).map((r): Route => ({ ...r, cors: sameOrigin, api: false })),
  ];
  const listed = routes
    .filter((r) => r.api)
    .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`)
    .join(", ");

  // standardHostname: false — Elysia finds the path at the first "/" from character 11 of the URL
  // (assuming a host of 4+ characters), so `Host: x` turned /zz/health into /health (issue #12
  // item 9). From character 7 it is right for every URL Bun builds here: this server speaks plain
  // http, so request.url always starts "http://". Costs nothing: the same indexOf, another start.
  const app = new Elysia({ name: "graph-stats", handler: { standardHostname: false } });
  // Each route once: its handler, then per path the API's CORS preflight and a 405 naming the
  // methods the path has (the router prefers a method's own route to `.all`).
  for (const r of routes) app.route(r.method, r.path, wrap(r.cors, r.path, r.handler));
  for (const path of new Set(routes.map((r) => r.path))) {
    const here = routes.filter((r) => r.path === path);
    if (here.some((r) => r.api)) app.options(path, preflight(here[0]!.cors, path));
    app.all(path, notAllowed(here[0]!.cors, path, here.map((r) => r.method).join(", ")));
  }
  // Everything else is a 404 envelope, answered by a route of its own so it goes through the same
  // wrap (request id, CORS, access log). A global onError once cost ~30% of /health's CPU; on
  // Elysia 1.4.30 a named plugin's onError measured free (10.37 vs 10.48 µs/req, wrk).
  return app.all(
    "/*",
    wrap(PUBLIC, "unmatched", (request, state) =>
      render(request, state, new HttpError(404, "NOT_FOUND", `no route for ${request.method} ${state.path}; routes: ${listed}`)),
    ),
  );
}
