/** Pure parsers and predicates for the textual forms docs/api.md fixes: timestamps, messages, header values. */

/** ISO 8601 UTC timestamp (date, time, optional fraction, `Z` or a zero offset). `meta.generated_at`, docs/api.md § The envelope. */
export function isIsoUtc(value: unknown): boolean {
  if (typeof value !== "string") return false;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]00:?00)$/.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const date = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo! - 1 && date.getUTCDate() === d && h! < 24 && mi! < 60 && s! < 60;
}

/** Exactly the `new Date().toISOString()` form (docs/api.md § The envelope). */
export function isToIsoStringForm(value: unknown): boolean {
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value) && isIsoUtc(value);
}

export interface RateLimitedMessage {
  limit: number;
  noun: "request" | "requests";
  retrySeconds: number;
}

/** Parse `rate limit exceeded: <n> request(s)/minute. Retry in <s>s.` (docs/api.md § Metering); undefined when it does not match. */
export function parseRateLimitedMessage(message: unknown): RateLimitedMessage | undefined {
  if (typeof message !== "string") return undefined;
  const m = /^rate limit exceeded: (\d+) (requests?)\/minute\. Retry in (\d+)s\.$/.exec(message);
  if (!m) return undefined;
  return { limit: Number(m[1]), noun: m[2] as "request" | "requests", retrySeconds: Number(m[3]) };
}

/** Parse `daily quota exceeded: <n> requests/day. Resets at <ISO>.` (docs/api.md § Metering). */
export function parseDailyQuotaMessage(message: unknown): { limit: number; noun: string; resetsAt: string } | undefined {
  if (typeof message !== "string") return undefined;
  const m = /^daily quota exceeded: (\d+) (requests?)\/day\. Resets at (\S+)\.$/.exec(message);
  if (!m) return undefined;
  return { limit: Number(m[1]), noun: m[2]!, resetsAt: m[3]! };
}

/** A header value that is a non-negative decimal integer, else undefined. */
export function intHeader(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || !/^\d+$/.test(raw.trim())) return undefined;
  return Number(raw.trim());
}

/** Seconds from `nowMs` to the next UTC midnight. */
export function secondsToUtcMidnight(nowMs: number): number {
  const d = new Date(nowMs);
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
  return (next - nowMs) / 1000;
}

/** The five rate-limit headers of docs/api.md § Headers. */
export const RATE_LIMIT_HEADERS = [
  "X-RateLimit-Limit",
  "X-RateLimit-Remaining",
  "X-RateLimit-Daily-Limit",
  "X-RateLimit-Daily-Remaining",
  "X-RateLimit-Reset",
] as const;
