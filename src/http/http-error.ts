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
  | "SERVICE_UNAVAILABLE";

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
