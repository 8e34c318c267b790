import { AccountError } from "../dashboard/account.ts";
import { ChartError, type ChartErrorKind } from "../engine/types.ts";
import { MarketUnavailableError } from "../market/store-errors.ts";
import { isBusy, meterError, MeterUnavailableError, writeFailureOf } from "../metering/database-errors.ts";

/** The error codes a response can carry (DECISIONS §4). */
export type ErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "RATE_LIMITED"
  | "DAILY_QUOTA_EXCEEDED"
  | "INTERNAL_ERROR"
  | "SERVICE_UNAVAILABLE"
  /** Never read by anyone (the client is gone): the audit row's and the access line's code. */
  | "CLIENT_CLOSED_REQUEST";

export interface ErrorObject {
  code: ErrorCode;
  message: string;
}

/**
 * The one exception type of the HTTP layer: it knows its status, its error objects and any
 * extra headers, and the app's error handler renders it as an envelope.
 */
export class HttpError extends Error {
  readonly errors: ErrorObject[];
  constructor(
    readonly status: number,
    code: ErrorCode,
    messages: string | string[],
    readonly headers: Record<string, string> = {},
  ) {
    const list = Array.isArray(messages) ? messages : [messages];
    super(list.join("; "));
    this.name = "HttpError";
    this.errors = list.map((message) => ({ code, message }));
  }
}

/** The status and code each refusal of the data gets (DECISIONS §4): what does not exist is a 404. */
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

const ACCOUNT_STATUS: Record<AccountError["kind"], [number, ErrorCode]> = {
  "account-disabled": [403, "FORBIDDEN"],
  "token-limit": [429, "RATE_LIMITED"],
  "unknown-token": [404, "NOT_FOUND"],
};

/**
 * The one mapping from anything thrown to its answer: domain refusals to 4xx, the database's
 * conditions to 503 with Retry-After, anything else to a 500 naming only the request id.
 */
export function toHttpError(thrown: unknown, requestId: string): HttpError {
  if (thrown instanceof HttpError) return thrown;
  if (thrown instanceof ChartError) return new HttpError(...CHART_STATUS[thrown.kind], thrown.message);
  if (thrown instanceof AccountError) {
    return new HttpError(
      ...ACCOUNT_STATUS[thrown.kind],
      thrown.message,
      thrown.retryAfter ? { "Retry-After": String(thrown.retryAfter) } : {},
    );
  }
  if (thrown instanceof MarketUnavailableError) return new HttpError(503, "SERVICE_UNAVAILABLE", thrown.message, { "Retry-After": "5" });
  // A PostgreSQL failure reaching here from any store (users, tokens) is the meter's own kind of 503.
  const err = meterError(thrown);
  if (err instanceof MeterUnavailableError) {
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

/** For logs only: the error's class and message, no stack, never request data. */
export function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
