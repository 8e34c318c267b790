/**
 * GET /v1/graph-stats/chart — the metered live endpoint. Order (DECISIONS §6): authenticate →
 * validate (query size, parameters, and from metadata everything the data can refuse) → limits → compute. Only admitted
 * requests count; after admission only a server fault (5xx) is refunded. Every request lands in the audit log.
 */
import { ChartError } from "../../engine/types.ts";
import { parseChartParams } from "../params/params.ts";
import { isBusyError, MeterBusyError, rateLimitHeaders, writeFailureOf } from "../../metering/index.ts";
import { meterError, MeterUnavailableError } from "../../metering/limiter-pg.ts";
import type { AppDeps, RequestState } from "../context.ts";
import { baseMeta, errorBody, jsonResponse, RawJson, successBody } from "../envelope.ts";
import { HttpError } from "../http-error.ts";
import type { AuthedUser } from "../auth-gate.ts";
import { toCsv, toNdjson } from "../tidy-export.ts";

/** DECISIONS §4: a query string over 8 KiB is refused before any other work. */
export const MAX_QUERY_BYTES = 8 * 1024;

const NO_STORE = { "Cache-Control": "no-store" };

/**
 * Who is calling and with which query, when not from the request itself: the dashboard runs a
 * signed-in user's query through this same metered path, authenticated by its session.
 */
export interface ChartCaller {
  authenticate(): Promise<AuthedUser>;
  query: string;
}

export async function handleChart(deps: AppDeps, request: Request, state: RequestState, caller?: ChartCaller): Promise<Response> {
  const q = request.url.indexOf("?");
  const query = caller ? caller.query : q < 0 ? "" : request.url.slice(q + 1);
  const auditParams = query.slice(0, 1024);
  let user: AuthedUser | null = null;
  let logId: number | null = null;
  let rlHeaders: Record<string, string> = {};
  try {
    if (!(await deps.checkDatabase())) {
      throw new HttpError(503, "SERVICE_UNAVAILABLE", "the database is unavailable; retry shortly", { "Retry-After": "5" });
    }
    user = await (caller ? caller.authenticate() : deps.auth(request.headers.get("authorization")));
    state.userId = user.id;
    if (Buffer.byteLength(query) > MAX_QUERY_BYTES) {
      throw new HttpError(400, "BAD_REQUEST", `query string is ${Buffer.byteLength(query)} bytes; at most ${MAX_QUERY_BYTES} are allowed`);
    }
    const parsed = parseChartParams(new URLSearchParams(query), { defaultUniverse: deps.defaultUniverse });
    if (!parsed.ok) throw new HttpError(400, "BAD_REQUEST", parsed.errors);
    const prepared = await deps.chart.prepare(parsed.params, user.id);

    const admission = await deps.limiter.admit({ userId: user.id, limits: user.limits, requestId: state.requestId, params: auditParams });
    logId = admission.logId;
    rlHeaders = rateLimitHeaders(admission.state);
    deps.lastKnown?.remember(user.id, admission.state);
    deps.metrics?.decision(admission.ok ? "admitted" : admission.code);
    if (!admission.ok) {
      // The 429 row is already written, exact, in the meter's transaction; its duration waits for the next audit flush.
      deps.limiter.finishRefused(admission.logId, performance.now() - state.start);
      logId = null;
      return errorResponse(deps, request, state, 429, [{ code: admission.code, message: admission.message }], rlHeaders);
    }

    const t0 = performance.now();
    const outcome = await deps.chart.compute(prepared);
    const computeMs = Math.round((performance.now() - t0) * 1000) / 1000;
    deps.metrics?.computed(computeMs);
    const meta = baseMeta(deps.clock.now(), state.requestId, {
      // The effective as-of: the date of the bar actually used when the caller gave none.
      params: parsed.params.asof === null ? { ...parsed.params, asof: outcome.diagnostics.last_asof.slice(0, 10) } : parsed.params,
      diagnostics: { ...outcome.diagnostics, compute_ms: computeMs, cached: outcome.cached },
    });
    const format = parsed.params.format;
    // Tidy exports carry the data only; request id and rate limits stay in the headers.
    const body = format === "json" ? successBody(new RawJson(outcome.dataJson), meta) : tidy(format, outcome.dataJson);
    await deps.limiter.finish(logId, 200, performance.now() - state.start);
    logId = null;
    return jsonResponse(
      body,
      200,
      { ...state.base, ...rlHeaders, ...NO_STORE },
      request.headers.get("accept-encoding"),
      request.method === "HEAD",
      TIDY_TYPES[format],
    );
  } catch (err) {
    const failure = toHttpError(err, state.requestId);
    if (failure.status >= 500) deps.logger.error({ request_id: state.requestId, err: describe(err) }, "live request failed");
    try {
      if (logId !== null) {
        // Admitted but not served: only a server fault is refunded (DECISIONS §6; what the data
        // refuses was decided before admission), then report the windows as they now stand.
        await deps.limiter.finish(logId, failure.status, performance.now() - state.start, { refund: failure.status >= 500 });
      } else if (failure.status !== 503) {
        await deps.limiter.logUnmetered({
          userId: user?.id ?? null,
          requestId: state.requestId,
          status: failure.status,
          code: failure.errors[0]?.code ?? null,
          params: auditParams,
          durationMs: performance.now() - state.start,
        });
      }
    } catch (auditErr) {
      // The answer to the caller stands; the database trouble is already what it reports or will be next.
      deps.logger.error({ request_id: state.requestId, err: describe(auditErr) }, "could not write the audit log");
    }
    // Every answer to a known user carries the windows as they now stand (after a refund), 503s
    // included: peeking is a read, which WAL serves while another process holds the write lock.
    if (user && (logId !== null || Object.keys(rlHeaders).length === 0)) rlHeaders = (await peekHeaders(deps, user, state.requestId)) ?? rlHeaders;
    // The database could not even say who is calling: the token's signature can, and this
    // process's last view of that user's meter gives the headers (none for a user never seen here).
    if (!user && failure.status === 503 && !caller && deps.identify) {
      const seen = deps.lastKnown?.get((await deps.identify(request.headers.get("authorization")).catch(() => null)) ?? "");
      if (seen) rlHeaders = rateLimitHeaders(seen);
    }
    return errorResponse(deps, request, state, failure.status, failure.errors, { ...rlHeaders, ...failure.headers });
  }
}

/**
 * The rate-limit headers from a read of the meter; when even the read fails (PostgreSQL down),
 * this process's last view of the user's meter (metering/last-known.ts), else null (logged).
 */
async function peekHeaders(deps: AppDeps, user: AuthedUser, requestId: string): Promise<Record<string, string> | null> {
  try {
    const state = await deps.limiter.peek(user.id, user.limits);
    deps.lastKnown?.remember(user.id, state);
    return rateLimitHeaders(state);
  } catch (err) {
    const seen = deps.lastKnown?.get(user.id);
    if (seen) return rateLimitHeaders(seen);
    deps.logger.error({ request_id: requestId, err: describe(err) }, "could not read the usage meter");
    return null;
  }
}

const TIDY_TYPES = {
  json: "application/json; charset=utf-8",
  csv: "text/csv; charset=utf-8; header=present",
  ndjson: "application/x-ndjson; charset=utf-8",
} as const;

function tidy(format: "csv" | "ndjson", dataJson: string): string {
  const data = JSON.parse(dataJson);
  return format === "csv" ? toCsv(data) : toNdjson(data);
}

function errorResponse(
  deps: AppDeps,
  request: Request,
  state: RequestState,
  status: number,
  errors: { code: string; message: string }[],
  headers: Record<string, string>,
): Response {
  const body = errorBody(errors as never, baseMeta(deps.clock.now(), state.requestId));
  return jsonResponse(body, status, { ...state.base, ...headers, ...NO_STORE }, request.headers.get("accept-encoding"), request.method === "HEAD");
}

/** Maps anything thrown to an HttpError; unexpected failures become a 500 naming only the request id. */
export function toHttpError(thrown: unknown, requestId: string): HttpError {
  if (thrown instanceof HttpError) return thrown;
  // A PostgreSQL failure reaching here from any store (users, tokens) is the meter's own kind of 503.
  const err = meterError(thrown);
  if (err instanceof MeterUnavailableError) {
    return new HttpError(503, "SERVICE_UNAVAILABLE", `the database is unreachable; retry shortly (request ${requestId})`, { "Retry-After": "2" });
  }
  if (err instanceof ChartError) return new HttpError(err.code === "NOT_FOUND" ? 404 : 400, err.code, err.message);
  if (isBusy(err)) return new HttpError(503, "SERVICE_UNAVAILABLE", `database busy; retry shortly (request ${requestId})`, { "Retry-After": "1" });
  // The storage's condition, not a bug: nothing was recorded or charged, and it passes by itself when space returns.
  const storage = writeFailureOf(err);
  if (storage !== null) {
    return new HttpError(503, "SERVICE_UNAVAILABLE", `the database cannot store writes right now (${storage}); retry shortly (request ${requestId})`, {
      "Retry-After": "5",
    });
  }
  return new HttpError(500, "INTERNAL_ERROR", `internal error; quote request id ${requestId} when reporting it`);
}

function isBusy(err: unknown): boolean {
  return err instanceof MeterBusyError || isBusyError(err);
}

/** For logs only: the error's class and message, no stack, never request data. */
export function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
