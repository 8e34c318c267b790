/// <reference lib="dom" />
/**
 * Calls from the page to the server. Every answer is the service's envelope; a failure comes
 * back as a value carrying the first error's message, ready for the page's alert region.
 */

export type ApiResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; message: string };

interface Envelope<T> {
  success: boolean;
  errors?: { code: string; message: string }[];
  data: T | null;
}

/** The CSRF token of the session, read once from the page state by main.ts. */
let csrfToken = "";

export function setCsrf(token: string): void {
  csrfToken = token;
}

/** GET (no body) or POST (optional JSON body) with the CSRF header on every POST. */
export async function callApi<T>(method: "GET" | "POST", url: string, body?: unknown): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (method === "POST") headers["X-CSRF-Token"] = csrfToken;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    return { ok: false, status: 0, message: "The server could not be reached. Check your connection and try again." };
  }
  let env: Envelope<T> | null = null;
  try {
    env = (await res.json()) as Envelope<T>;
  } catch {
    env = null;
  }
  if (res.ok && env?.success && env.data !== null) return { ok: true, status: res.status, data: env.data };
  const message = env?.errors?.[0]?.message ?? `The server answered ${res.status} ${res.statusText}.`;
  return { ok: false, status: res.status, message: res.status === 401 ? `${message} Reload the page to sign in again.` : message };
}
