/**
 * Every failure the service answers, one class per case, all under GraphStatsError. The class comes
 * from what the interface binds — the status, `errors[0].code`, `Retry-After` and the expired-token
 * 401 — so the same classes come out of any implementation of the interface.
 */

export interface ErrorObject {
  code: string;
  message: string;
}

export interface ErrorInit {
  status: number | null;
  errors?: ErrorObject[];
  headers?: Headers;
  body?: unknown;
}

export class GraphStatsError extends Error {
  readonly status: number | null;
  /** The envelope's `errors` (empty when the answer was no envelope). */
  readonly errors: ErrorObject[];
  readonly headers: Headers;
  readonly body: unknown;

  constructor(message: string, init: ErrorInit) {
    super(message);
    this.name = new.target.name;
    this.status = init.status;
    this.errors = init.errors ?? [];
    this.headers = init.headers ?? new Headers();
    this.body = init.body;
  }

  /** `errors[0].code`, or null. */
  get code(): string | null {
    return this.errors[0]?.code ?? null;
  }

  get requestId(): string | null {
    return this.headers.get("X-Request-Id");
  }
}

/** 400: every problem the server found is in `errors` (and in the message, one a line). */
export class BadRequestError extends GraphStatsError {}

/** 401 other than an expired token (missing, malformed, badly signed, revoked…). */
export class UnauthorizedError extends GraphStatsError {}

/** The interface's expired-token 401: a new token comes from the dashboard (`dashboardUrl`). */
export class TokenExpiredError extends UnauthorizedError {
  readonly dashboardUrl: string;
  constructor(message: string, init: ErrorInit & { dashboardUrl: string }) {
    super(message, init);
    this.dashboardUrl = init.dashboardUrl;
  }
}

/** 403: a valid token of a disabled user. */
export class ForbiddenError extends UnauthorizedError {}

/** 404: unknown route or universe, fewer than 2 known symbols. */
export class NotFoundError extends GraphStatsError {}

/** 429 RATE_LIMITED: the minute window is full; `retryAfter` seconds until a slot frees. */
export class RateLimitedError extends GraphStatsError {
  get retryAfter(): number | null {
    return retryAfter(this.headers);
  }
}

/** 429 DAILY_QUOTA_EXCEEDED: retrying before `resetsAt` (the next UTC midnight) is pointless. */
export class QuotaExceededError extends GraphStatsError {
  private readonly receivedAt = Date.now();
  get retryAfter(): number | null {
    return retryAfter(this.headers);
  }
  /** When the quota resets: the answer's time plus its Retry-After. */
  get resetsAt(): Date | null {
    const wait = this.retryAfter;
    return wait === null ? null : new Date(this.receivedAt + wait * 1000);
  }
}

/** 503: busy, draining or without its database; `retryAfter` says when to try again. */
export class ServiceUnavailableError extends GraphStatsError {
  get retryAfter(): number | null {
    return retryAfter(this.headers);
  }
}

/**
 * No complete answer: refused, reset, closed early, or timed out. Never retried: a metered request
 * may have been admitted before the connection went.
 */
export class DisconnectedError extends GraphStatsError {}

/** Retry-After in seconds (delta-seconds, or an HTTP date converted), else null. */
export function retryAfter(headers: Headers): number | null {
  const raw = headers.get("Retry-After")?.trim();
  if (!raw) return null;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, (at - Date.now()) / 1000);
}
