/**
 * An error that carries how a client sees it — status, code, extra headers — so the HTTP layer
 * renders any module's refusal without knowing the module (as Hono's HTTPException does).
 */

/** The error codes a response can carry (docs/api.md § Errors). */
export type ErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  /** The admin API: the thing exists already, or is still in use. */
  | "CONFLICT"
  | "RATE_LIMITED"
  | "DAILY_QUOTA_EXCEEDED"
  | "INTERNAL_ERROR"
  | "SERVICE_UNAVAILABLE"
  /** Never read by anyone (the client is gone): the audit row's and the access line's code. */
  | "CLIENT_CLOSED_REQUEST";

export class StatusError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "StatusError";
  }
}
