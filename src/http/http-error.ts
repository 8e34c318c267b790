import { StatusError, type ErrorCode } from "../status-error.ts";
import { isBusy, databaseError, DatabaseUnavailableError, writeFailureOf } from "../../db/errors.ts";
import { ChartError, type ChartErrorKind } from "../engine/types.ts";

export type { ErrorCode };

export interface ErrorObject {
  code: ErrorCode;
  message: string;
}

/**
 * The HTTP layer's own StatusError, with one error object per problem found (a request with three
 * bad parameters gets three); the app's error handler renders it as an envelope.
 */
export class HttpError extends StatusError {
  readonly errors: ErrorObject[];
  constructor(status: number, code: ErrorCode, messages: string | string[], headers: Record<string, string> = {}) {
    const list = Array.isArray(messages) ? messages : [messages];
    super(status, code, list.join("; "), headers);
    this.name = "HttpError";
    this.errors = list.map((message) => ({ code, message }));
  }
}

/**
 * The status each refusal of the data gets (docs/api.md § Errors): what does not exist is a 404.
 * The engine only says what is wrong (ChartError's kind; it imports nothing of ours), so its
 * errors are the one kind mapped here rather than carrying their status.
 */
const CHART_STATUS: Record<ChartErrorKind, [number, ErrorCode]> = {
  "no-data": [404, "NOT_FOUND"],
  "no-usable-symbols": [404, "NOT_FOUND"],
  "interval-unavailable": [400, "BAD_REQUEST"],
  "insufficient-history": [400, "BAD_REQUEST"],
  "out-of-range": [400, "BAD_REQUEST"],
  "too-large": [400, "BAD_REQUEST"],
  "over-budget": [400, "BAD_REQUEST"],
  "invalid-parameter": [400, "BAD_REQUEST"],
  "unknown-universe": [404, "NOT_FOUND"],
  "unknown-symbols": [404, "NOT_FOUND"],
  "too-few-symbols": [404, "NOT_FOUND"],
};

/**
 * The one mapping from anything thrown to its answer: any module's StatusError as it says, the
 * engine's ChartError by its kind, the database's conditions to 503 with Retry-After, anything
 * else to a 500 naming only the request id.
 */
export function toHttpError(thrown: unknown, requestId: string): HttpError {
  if (thrown instanceof HttpError) return thrown;
  if (thrown instanceof StatusError) return new HttpError(thrown.status, thrown.code, thrown.message, thrown.headers);
  if (thrown instanceof ChartError) return new HttpError(...CHART_STATUS[thrown.kind], thrown.message);
  // A database condition met by any store (the meter, users, tokens, sessions) is a 503.
  const err = databaseError(thrown);
  if (err instanceof DatabaseUnavailableError) {
    return new HttpError(503, "SERVICE_UNAVAILABLE", `the database is unreachable; retry shortly (request ${requestId})`, {
      "Retry-After": "2",
    });
  }
  if (isBusy(err))
    return new HttpError(503, "SERVICE_UNAVAILABLE", `database busy; retry shortly (request ${requestId})`, { "Retry-After": "1" });
  // The storage's condition, not a bug: nothing was recorded or charged, and it passes by itself when space returns.
  const storage = writeFailureOf(err);
  if (storage !== null) {
    return new HttpError(
      503,
      "SERVICE_UNAVAILABLE",
      `the database cannot store writes right now (${storage}); retry shortly (request ${requestId})`,
      {
        "Retry-After": "5",
      },
    );
  }
  return new HttpError(500, "INTERNAL_ERROR", `internal error; quote request id ${requestId} when reporting it`);
}

/**
 * For logs only: the error's class and message, no stack, never request data. drizzle's query
 * error spells out the statement and its parameters (a session's CSRF token among them), so the
 * driver's error it wraps is described instead.
 */
export function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const inner = "query" in err && "params" in err && err.cause instanceof Error ? err.cause : err;
  return `${inner.name}: ${inner.message}`;
}
