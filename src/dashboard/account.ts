/**
 * What a signed-in user can see and do with their API access: generate a token (the same HS256
 * token as the CLI's, at most 10 an hour), list and revoke their live tokens, and read their usage.
 */
import { StatusError, type ErrorCode } from "../status-error.ts";
import { isoTime, type Clock } from "../clock.ts";
import { mintToken, type AuthStore } from "../auth/index.ts";
import { DAY_MS, MINUTE_MS, utcDayStart, type Limits } from "../metering/index.ts";
import type { Meter } from "../metering/meter.ts";
import type { AccountStore } from "./account-store.ts";
import type { GeneratedToken, TokenView, UsageView } from "./view-model.ts";

/** README.md § Dashboard: token generation is limited per user. */
export const TOKENS_PER_HOUR = 10;
const HOUR_MS = 3600_000;
const USAGE_DAYS = 30;

type AccountErrorKind = "account-disabled" | "token-limit" | "unknown-token";

/** The status each refused account action gets (toHttpError renders an AccountError as any StatusError). */
const ACCOUNT_STATUS: Record<AccountErrorKind, [number, ErrorCode]> = {
  "account-disabled": [403, "FORBIDDEN"],
  "token-limit": [429, "RATE_LIMITED"],
  "unknown-token": [404, "NOT_FOUND"],
};

/** A refused account action, in the account's terms, carrying its status; retryAfter in seconds. */
export class AccountError extends StatusError {
  constructor(
    readonly kind: AccountErrorKind,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(...ACCOUNT_STATUS[kind], message, retryAfter ? { "Retry-After": String(retryAfter) } : {});
    this.name = "AccountError";
  }
}

export interface AccountDeps {
  store: AccountStore;
  auth: AuthStore;
  clock: Clock;
  meter: Meter;
  secret: string;
  ttlSeconds: number;
  baseUrl: () => string;
}

export function createAccount(d: AccountDeps) {
  return {
    async tokensLeftThisHour(userId: string): Promise<number> {
      return Math.max(0, TOKENS_PER_HOUR - (await d.store.issuedSince(userId, d.clock.now() - HOUR_MS + 1)).length);
    },

    async generate(user: { id: string; email: string | null; disabled: boolean }): Promise<GeneratedToken> {
      if (user.disabled)
        throw new AccountError("account-disabled", "your account is disabled, so it cannot generate tokens; ask the operator to enable it");
      const now = d.clock.now();
      const t = await mintToken({
        secret: d.secret,
        userId: user.id,
        ttlSeconds: d.ttlSeconds,
        clock: d.clock,
        email: user.email ?? undefined,
      });
      // The hourly count and the insert are one transaction: concurrent clicks cannot mint an 11th
      // (40–100 at once minted 11–19 on SQLite and 31 on PostgreSQL when it was check, then insert).
      const outcome = await d.auth.issueTokenWithin(
        { jti: t.jti, userId: user.id, issuedAt: now, expiresAt: t.exp * 1000 },
        { now, since: now - HOUR_MS + 1, max: TOKENS_PER_HOUR },
      );
      if (!outcome.issued) {
        const recent = outcome.recent;
        const retryAfter = Math.max(1, Math.ceil((recent[recent.length - TOKENS_PER_HOUR]! + HOUR_MS - now) / 1000));
        throw new AccountError("token-limit", `at most ${TOKENS_PER_HOUR} tokens an hour; try again in ${retryAfter}s`, retryAfter);
      }
      return {
        token: t.token,
        jti: t.jti,
        issuedAt: isoTime(now),
        expiresAt: isoTime(t.exp * 1000),
        curl: `curl -s -H "Authorization: Bearer ${t.token}" '${d.baseUrl()}/v1/graph-stats/chart?lookback=60&graph_method=mst'`,
      };
    },

    /** The user's tokens that still work (not expired, not revoked), newest first. */
    async liveTokens(userId: string): Promise<TokenView[]> {
      const rows = await d.store.liveTokens(userId, d.clock.now());
      return rows.map((t) => ({ jti: t.jti, issuedAt: isoTime(t.issuedAt), expiresAt: isoTime(t.expiresAt) }));
    },

    /** Revokes one of the user's own tokens; another user's jti is "not found", never revoked. */
    async revoke(userId: string, jti: string): Promise<void> {
      if ((await d.store.tokenOwner(jti)) !== userId) throw new AccountError("unknown-token", `no token ${jti.slice(0, 8)}… of yours`);
      await d.auth.revokeToken(jti, d.clock.now());
    },

    async usage(userId: string, limits: Limits): Promise<UsageView> {
      const state = await d.meter.peek(userId, limits);
      const today = utcDayStart(state.now);
      const first = today - (USAGE_DAYS - 1) * DAY_MS;
      const rows = await d.store.usageDays(userId, first);
      const byDay = new Map(rows.map((r) => [r.day, r.admitted]));
      return {
        today: state.dayUsed,
        perDay: limits.perDay,
        minute: {
          used: state.minuteUsed,
          limit: limits.perMinute,
          resetAt: Math.ceil((state.oldestInWindow === null ? state.now : state.oldestInWindow + MINUTE_MS) / 1000),
        },
        days: Array.from({ length: USAGE_DAYS }, (_, i) => {
          const day = first + i * DAY_MS;
          return { date: isoTime(day).slice(0, 10), admitted: byDay.get(day) ?? 0 };
        }),
      };
    },
  };
}

export type Account = ReturnType<typeof createAccount>;
