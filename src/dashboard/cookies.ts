/** Reading and writing the dashboard's cookies (RFC 6265), with the flags README.md § Dashboard names. */

export interface CookieOptions {
  /** Under https: Secure, and the `__Host-` prefix where the path is `/`. */
  secure: boolean;
  path: string;
  /** Seconds; 0 deletes the cookie; omitted = a session cookie. */
  maxAge?: number;
}

/** Same-named cookies looked at, at most: a browser sends one per path and domain that set it. */
const MAX_SAME_NAME = 4;

/**
 * Every value of cookie `name`, in the order sent (at most MAX_SAME_NAME), from a header of any
 * length the server accepted: a length cap of its own (8 KB) dropped the session of a user with
 * many other cookies on the host, who then looped through sign-in (issue #41 item 9). Values are
 * base64url or JWE compact, so no decoding is needed.
 */
export function readCookies(header: string | null, name: string): string[] {
  const found: string[] = [];
  if (!header) return found;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) found.push(part.slice(eq + 1).trim());
    if (found.length === MAX_SAME_NAME) break;
  }
  return found;
}

export function cookieName(base: string, o: { secure: boolean; path: string }): string {
  return o.secure && o.path === "/" ? `__Host-${base}` : base;
}

/** HttpOnly and SameSite=Lax always: the sign-in callback is a top-level GET from the provider. */
export function setCookie(name: string, value: string, o: CookieOptions): string {
  let c = `${name}=${value}; Path=${o.path}; HttpOnly; SameSite=Lax`;
  if (o.secure) c += "; Secure";
  if (o.maxAge !== undefined) c += `; Max-Age=${o.maxAge}`;
  return c;
}
