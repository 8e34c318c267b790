/**
 * CORS (docs/api.md § Headers): the public routes allow any origin; the live endpoint only the
 * configured origins. Rate-limit headers, Retry-After and X-Request-Id are exposed so browser
 * clients can honour the limits; ETag and If-None-Match so they can revalidate /v1/universes.
 */
import { RATE_LIMIT_HEADER_NAMES } from "../metering/headers.ts";

const EXPOSED = ["X-Request-Id", ...RATE_LIMIT_HEADER_NAMES, "Retry-After", "ETag"].join(", ");

export type CorsPolicy = { kind: "any" } | { kind: "list"; origins: ReadonlySet<string> };

/** The public routes' policy (/health, the demo, the OpenAPI document and page). */
export const PUBLIC: CorsPolicy = Object.freeze({ kind: "any" });

const ANY_ORIGIN = Object.freeze({ "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": EXPOSED });

/** Headers for an actual (non-preflight) response. Callers copy, never mutate, the result. */
export function corsHeaders(policy: CorsPolicy, origin: string | null): Readonly<Record<string, string>> {
  if (policy.kind === "any") return ANY_ORIGIN;
  if (origin && policy.origins.has(origin)) {
    return { "Access-Control-Allow-Origin": origin, "Access-Control-Expose-Headers": EXPOSED, Vary: "Origin" };
  }
  return policy.origins.size > 0 ? { Vary: "Origin" } : {};
}

/**
 * A fresh, mutable object with the CORS headers of an actual response plus X-Request-Id. The
 * public routes' object is a literal and their Origin header is not read: spreading the frozen
 * headers into a new object on every request showed in /health's profile (bench/http.bench.ts).
 */
export function baseHeaders(policy: CorsPolicy, headers: Headers, requestId: string): Record<string, string> {
  if (policy.kind === "any")
    return { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": EXPOSED, "X-Request-Id": requestId };
  return { ...corsHeaders(policy, headers.get("origin")), "X-Request-Id": requestId };
}

/** Headers for a preflight (OPTIONS) answer; never metered. */
export function preflightHeaders(policy: CorsPolicy, origin: string | null): Record<string, string> {
  const base = corsHeaders(policy, origin);
  if (!base["Access-Control-Allow-Origin"]) return { ...base, Allow: "GET, HEAD, OPTIONS" };
  return {
    ...base,
    Allow: "GET, HEAD, OPTIONS",
    "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
    "Access-Control-Allow-Headers": "Authorization, Content-Type, X-Request-Id, If-None-Match",
    "Access-Control-Max-Age": "600",
  };
}
