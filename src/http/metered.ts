/**
 * The metering wrapper of a live request (docs/api.md § Metering): database check → authenticate →
 * prepare (everything that can refuse before anything counts) → admit → work → finish (a server
 * fault refunded) → rate-limit headers → audit. Only admitted requests count; every request,
 * answered or refused, lands in the audit log. A denial is the meter's returned value, rendered
 * here as 429.
 */
import { WorkBoundFull } from "../compute/admitted-work.ts";
import { rateLimitHeaders } from "../metering/index.ts";
import type { AuthedUser } from "./auth-gate.ts";
import type { AppDeps, RequestState } from "./context.ts";
import { baseMeta, errorBody, jsonResponse } from "./envelope.ts";
import { describe, HttpError, toHttpError, type ErrorObject } from "./http-error.ts";
import { unavailableReason } from "./unavailable-reason.ts";

/** A metered answer is never cached: it carries the caller's windows. */
export const NO_STORE = { "Cache-Control": "no-store" };

/** What the route supplies; the wrapper decides when each runs and what is counted. */
export interface MeteredSteps<P> {
  /** The query as written to the audit log. */
  auditParams: string;
  /** Who is calling; throws 401/403. */
  authenticate(): Promise<AuthedUser>;
  /** For a 503 before anyone is known: the user the credential names from its signature alone. */
  identify?(): Promise<string | null>;
  /** Parse and prepare: every refusal the request or the data can give, decided before admission. */
  prepare(user: AuthedUser): Promise<P>;
  /**
   * Whether the answer is already in hand once prepared (a cached result): the meter then records
   * the request as answered (200) in the admitting transaction, and writes only its duration later.
   */
  answered?(prepared: P): boolean;
  /** The request's estimated cost once prepared (ms of one core), kept on its row for the billing export. */
  cost?(prepared: P): number;
  /** Once the request is over, whatever its outcome: frees what prepare reserved. */
  done?(prepared: P): void;
  /**
   * The admitted work: the answer, carrying `headers` (the caller's windows after this request).
   * `signal` aborts when the client goes away; the work then stops and rejects.
   */
  work(prepared: P, headers: Record<string, string>, signal: AbortSignal): Promise<Response>;
}

/** nginx's 499: the client closed the connection before the answer (docs/api.md § Heavy requests). */
export const CLIENT_CLOSED = 499;

function clientClosed(): HttpError {
  return new HttpError(
    CLIENT_CLOSED,
    "CLIENT_CLOSED_REQUEST",
    "the client closed the connection before the answer; the computation was cancelled and the request refunded",
  );
}

export async function metered<P>(deps: AppDeps, request: Request, state: RequestState, steps: MeteredSteps<P>): Promise<Response> {
  let user: AuthedUser | null = null;
  let logId: number | null = null;
  let rlHeaders: Record<string, string> = {};
  let prepared: { value: P } | null = null;
  try {
    if (!(await deps.checkDatabase())) {
      state.unavailable = "database_unreachable";
      throw new HttpError(503, "SERVICE_UNAVAILABLE", "the database is unavailable; retry shortly", { "Retry-After": "5" });
    }
    user = await steps.authenticate();
    state.userId = user.id;
    prepared = { value: await steps.prepare(user) };
    // Gone before admission: nothing is counted (logged as 499 below).
    if (request.signal.aborted) throw clientClosed();

    const admission = await deps.meter.admit({
      userId: user.id,
      limits: user.limits,
      requestId: state.requestId,
      params: steps.auditParams,
      answered: steps.answered?.(prepared.value) ? 200 : undefined,
      cost: steps.cost?.(prepared.value),
      plan: user.plan,
      // Gone while admission waits for another process's lock: not admitted (logged as 499 below).
      signal: request.signal,
    });
    logId = admission.logId;
    rlHeaders = rateLimitHeaders(admission.state);
    deps.lastKnown?.remember(user.id, admission.state);
    deps.metrics?.decision(admission.ok ? "admitted" : admission.code);
    if (!admission.ok) {
      // The 429 row is already written, exact, in the meter's transaction; its duration waits for the next audit flush.
      deps.meter.finishRefused(admission.logId, performance.now() - state.start);
      logId = null;
      return errorResponse(deps, request, state, 429, [{ code: admission.code, message: admission.message }], rlHeaders);
    }

    // The connection outlives the longest admissible computation: no idle timeout while it works.
    state.server?.timeout(request, 0);
    const response = await steps.work(prepared.value, rlHeaders, request.signal);
    // Gone while the answer was made: it can never be delivered, so it is refunded, not charged.
    if (request.signal.aborted) throw clientClosed();
    await deps.meter.finish(logId, response.status, performance.now() - state.start);
    logId = null;
    return response;
  } catch (err) {
    const failure = request.signal.aborted ? clientClosed() : toHttpError(err, state.requestId);
    if (failure.status === 503) state.unavailable ??= err instanceof WorkBoundFull ? "work_bound_full" : unavailableReason(err);
    if (failure.status >= 500) deps.logger.error({ request_id: state.requestId, err: describe(err) }, "live request failed");
    try {
      if (logId !== null) {
        // Admitted but not served: only a server fault is refunded (docs/api.md § Metering; what the data
        // refuses was decided before admission), then report the windows as they now stand.
        await deps.meter.finish(logId, failure.status, performance.now() - state.start, {
          refund: failure.status >= 500 || failure.status === CLIENT_CLOSED,
        });
      } else if (failure.status !== 503 || err instanceof WorkBoundFull) {
        await deps.meter.logUnmetered({
          userId: user?.id ?? null,
          requestId: state.requestId,
          status: failure.status,
          code: failure.errors[0]?.code ?? null,
          params: steps.auditParams,
          durationMs: performance.now() - state.start,
        });
      }
    } catch (auditErr) {
      // The answer to the caller stands; the database trouble is already what it reports or will be next.
      deps.logger.error({ request_id: state.requestId, err: describe(auditErr) }, "could not write the audit log");
    }
    // Every answer to a known user carries the windows as they now stand (after a refund), 503s
    // included: peeking is a read, which WAL serves while another process holds the write lock.
    if (user && (logId !== null || Object.keys(rlHeaders).length === 0))
      rlHeaders = (await peekHeaders(deps, user, state.requestId)) ?? rlHeaders;
    // The database could not even say who is calling: the token's signature can, and this
    // process's last view of that user's meter gives the headers (none for a user never seen here).
    if (!user && failure.status === 503 && steps.identify) {
      const seen = deps.lastKnown?.get((await steps.identify().catch(() => null)) ?? "");
      if (seen) rlHeaders = rateLimitHeaders(seen);
    }
    return errorResponse(deps, request, state, failure.status, failure.errors, { ...rlHeaders, ...failure.headers });
  } finally {
    if (prepared) steps.done?.(prepared.value);
  }
}

/**
 * The rate-limit headers from a read of the meter; when even the read fails (PostgreSQL down),
 * this process's last view of the user's meter (metering/last-known.ts), else null (logged).
 */
async function peekHeaders(deps: AppDeps, user: AuthedUser, requestId: string): Promise<Record<string, string> | null> {
  try {
    const state = await deps.meter.peek(user.id, user.limits);
    deps.lastKnown?.remember(user.id, state);
    return rateLimitHeaders(state);
  } catch (err) {
    const seen = deps.lastKnown?.get(user.id);
    if (seen) return rateLimitHeaders(seen);
    deps.logger.error({ request_id: requestId, err: describe(err) }, "could not read the usage meter");
    return null;
  }
}

function errorResponse(
  deps: AppDeps,
  request: Request,
  state: RequestState,
  status: number,
  errors: ErrorObject[],
  headers: Record<string, string>,
): Response {
  const body = errorBody(errors, baseMeta(deps.clock.now(), state.requestId));
  return jsonResponse(
    body,
    status,
    { ...state.base, ...headers, ...NO_STORE },
    request.headers.get("accept-encoding"),
    request.method === "HEAD",
  );
}
