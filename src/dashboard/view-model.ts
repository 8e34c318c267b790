/**
 * What the server hands the dashboard pages: the page renderer (pages.ts) turns it into HTML and
 * embeds it as JSON for the browser script (web/), so one type is the contract between them.
 */

export interface UsageDay {
  /** UTC date, YYYY-MM-DD. */
  date: string;
  admitted: number;
}

export interface UsageView {
  /** Admitted live requests since the last UTC midnight. */
  today: number;
  perDay: number;
  /** Admitted in the last 60 s, the per-minute limit, and when the next slot frees (epoch s). */
  minute: { used: number; limit: number; resetAt: number };
  /** The last 30 UTC days, oldest first, today last (days without calls are 0). */
  days: UsageDay[];
}

export interface TokenView {
  jti: string;
  /** ISO 8601 UTC. */
  issuedAt: string;
  expiresAt: string;
}

export interface SignedInView {
  user: { id: string; email: string | null; name: string | null; disabled: boolean };
  /** Sent back as the X-CSRF-Token header (fetch) or the `csrf` form field (sign-out). */
  csrf: string;
  /** May open the admin console (/dashboard/admin): the page links it only then. */
  admin: boolean;
  /** The service's public base URL, for the curl example (no trailing slash). */
  baseUrl: string;
  usage: UsageView;
  /** The user's live tokens (not expired, not revoked), newest first. */
  tokens: TokenView[];
  /** Tokens the user may still generate in the current hour. */
  tokensLeftThisHour: number;
}

export interface DashboardView {
  /** The embedded development identity provider is the sign-in: label it on every page. */
  dev: boolean;
  signedIn: SignedInView | null;
  /** A message for the top of the page (a failed sign-in, an expired session). */
  notice: { kind: "error" | "info"; text: string } | null;
  /** A sign-out that did not finish: the session's CSRF token, for a Sign out button in place of Sign in. */
  retrySignOut?: string;
}

/** POST /dashboard/api/tokens → 201, `data` of the envelope. */
export interface GeneratedToken {
  token: string;
  jti: string;
  issuedAt: string;
  expiresAt: string;
  /** A ready-to-run curl command using the token. */
  curl: string;
}
