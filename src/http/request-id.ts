const VALID = /^[A-Za-z0-9._-]{1,64}$/;

/** The caller's X-Request-Id when it is 1–64 of [A-Za-z0-9._-], else a new UUID (docs/api.md § Headers). */
export function requestIdFrom(header: string | null): string {
  return header && VALID.test(header) ? header : crypto.randomUUID();
}
