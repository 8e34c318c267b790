/** Reading and writing the dashboard's cookies (RFC 6265), with the flags README.md § Dashboard names. */

export interface CookieOptions {
  /** Under https: Secure, and the `__Host-` prefix where the path is `/`. */
  secure: boolean;
  path: string;
  /** Seconds; 0 deletes the cookie; omitted = a session cookie. */
  maxAge?: number;
}

/** The value of cookie `name`, or null. Values are base64url or JWE compact, so no decoding is needed. */
export function readCookie(header: string | null, name: string): string | null {
  if (!header || header.length > 8192) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
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
