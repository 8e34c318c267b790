/**
 * A browser's navigations (the dashboard page, sign-in, the callback, sign-out) answer a failure
 * with a page that says what happened and what to do, never the API's JSON envelope: with the
 * database busy, the callback and sign-out showed `{"success":false,…"database busy"…}` (issue #41
 * item 8). Status and Retry-After are what the API answers for the same failure (toHttpError), a
 * 503's reason is counted, and a server fault is logged once, as app.ts logs it (no SQL, no stack).
 */
import type { DashboardHandler, RequestState } from "../../http/context.ts";
import { describe, toHttpError, type HttpError } from "../../http/http-error.ts";
import { unavailableReason } from "../../http/unavailable-reason.ts";
import type { DashboardContext } from "./context.ts";

export interface FailureWording {
  /** What a 503 (the database busy or out of reach) means at this step and what to do. */
  unavailable?: string;
  /** Extra headers (clearing the pending sign-in's cookie). */
  headers?: Record<string, string>;
  /** A sign-out that did not finish: its CSRF token, for the page's Sign out button. */
  retrySignOut?: string | null;
}

/** A CSRF token's shape (32 random bytes, base64url): only such a value is put back into the page's form. */
const CSRF_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A 503's default: the page itself can simply be asked again. */
export const RELOAD = "The service's database did not answer in time. Reload this page in a few seconds.";

export function failurePage(c: DashboardContext, state: RequestState, err: unknown, w: FailureWording = {}): Promise<Response> {
  const e = toHttpError(err, state.requestId);
  if (e.status === 503) state.unavailable ??= unavailableReason(err);
  if (e.status >= 500) c.d.app.logger.error({ request_id: state.requestId, err: describe(err) }, "request failed");
  const unavailable = e.status === 503;
  const retrySignOut = unavailable && w.retrySignOut && CSRF_TOKEN.test(w.retrySignOut) ? w.retrySignOut : undefined;
  return c.html(
    state,
    {
      dev: c.d.dev,
      signedIn: null,
      notice: { kind: "error", text: unavailable ? (w.unavailable ?? RELOAD) : whatToDo(e, state.requestId) },
      retrySignOut,
    },
    e.status,
    { ...e.headers, ...w.headers },
  );
}

/** `handler` with whatever it throws rendered by failurePage. */
export function asPage(c: DashboardContext, handler: DashboardHandler, w: FailureWording = {}): DashboardHandler {
  return async (request, state) => {
    try {
      return await handler(request, state);
    } catch (err) {
      return failurePage(c, state, err, w);
    }
  };
}

/** A refusal's own message (written to say what to do) as a sentence; a fault names only the request id. */
function whatToDo(e: HttpError, requestId: string): string {
  if (e.status >= 500)
    return `Something went wrong on our side. Try again; if it keeps failing, give your administrator the request id ${requestId}.`;
  const text = e.message.charAt(0).toUpperCase() + e.message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
