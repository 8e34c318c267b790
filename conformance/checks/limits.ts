/** Rate-limit headers, the per-minute limit and its 429 (docs/api.md § Metering, § Headers). */
import { errorEnvelopeProblems, firstError, must } from "../lib/assert.ts";
import type { Limits } from "../lib/context.ts";
import { admittedSequence, firstRejection, minuteSequence, mustAcceptQuery, rateLimited, userBCall } from "../lib/scenarios.ts";
import { intHeader, parseRateLimitedMessage, RATE_LIMIT_HEADERS } from "../lib/spec-forms.ts";
import type { Check } from "../lib/check.ts";
import { type Exchange, Skip } from "../lib/types.ts";

/** The five headers as integers, within the bounds docs/api.md § Headers implies. */
export function headerProblems(ex: Exchange, limits: Limits, admitted: boolean): string[] {
  const p: string[] = [];
  const v: Record<string, number | undefined> = {};
  for (const name of RATE_LIMIT_HEADERS) {
    v[name] = intHeader(ex.headers, name);
    if (v[name] === undefined) p.push(`${name} is ${JSON.stringify(ex.headers.get(name))}, expected an integer`);
  }
  if (p.length) return p;
  const [lim, rem, dlim, drem, reset] = RATE_LIMIT_HEADERS.map((n) => v[n]!) as number[];
  // A deployment may set other limits than the defaults (1/min, 30/day): the kit can learn them instead.
  const hint = " (if this deployment sets other limits, run with --limits-from-headers)";
  if (lim !== limits.perMinute) p.push(`X-RateLimit-Limit is ${lim}, expected ${limits.perMinute}${hint}`);
  if (dlim !== limits.perDay) p.push(`X-RateLimit-Daily-Limit is ${dlim}, expected ${limits.perDay}${hint}`);
  // An admitted request has used a slot itself, so at most limit-1 remain.
  const top = admitted ? 1 : 0;
  if (rem! > lim! - top) p.push(`X-RateLimit-Remaining is ${rem}, above ${lim! - top}`);
  if (drem! > dlim! - top) p.push(`X-RateLimit-Daily-Remaining is ${drem}, above ${dlim! - top}`);
  const lo = Math.floor(ex.sentAt / 1000) - 1;
  const hi = Math.ceil(ex.receivedAt / 1000) + 61;
  if (reset! < lo || reset! > hi) p.push(`X-RateLimit-Reset is ${reset}, expected epoch seconds within the next minute [${lo}, ${hi}]`);
  return p;
}

const dailyRemaining = (ex: Exchange) => intHeader(ex.headers, "X-RateLimit-Daily-Remaining");

export const LIMIT_CHECKS: Check[] = [
  {
    id: "limits.headers-200",
    title: "every 200 carries the five X-RateLimit-* headers with the documented values",
    cites: "docs/api.md § Headers, § Metering",
    profile: "core",
    async run(ctx) {
      const seq = await admittedSequence(ctx);
      if (!seq.oks.length)
        throw new Skip(`user A got no 200 (${seq.rejected ? "its window is in use" : `its first call answered ${seq.other?.status}`})`);
      const limits = await ctx.limits();
      for (const ex of seq.oks) {
        const p = headerProblems(ex, limits, true);
        must(p.length === 0, p.join("; "), ex);
      }
    },
  },
  {
    id: "limits.minute-limit",
    title: "once the minute window is used up the next call is refused with 429, never a 200",
    cites: "docs/api.md § Metering, § Errors",
    profile: "core",
    async run(ctx) {
      const seq = await admittedSequence(ctx);
      const limits = await ctx.limits();
      // With a fresh user exactly `perMinute` calls are admitted; with a given token at most that many.
      const admittedMax = Math.min(limits.perMinute, limits.perDay);
      must(seq.oks.length <= admittedMax, `${seq.oks.length} back-to-back calls admitted, the limit is ${admittedMax}`, ...seq.oks);
      if (ctx.hasSecret)
        must(
          seq.oks.length === admittedMax,
          `a fresh user got ${seq.oks.length} of ${admittedMax} calls admitted`,
          ...seq.oks,
          ...(seq.rejected ? [seq.rejected] : []),
        );
      const { rejected } = await firstRejection(ctx);
      must(rejected.status === 429, `expected 429, got ${rejected.status}`, rejected);
    },
  },
  {
    id: "limits.rate-limited",
    title: "the per-minute 429 has code RATE_LIMITED, the error envelope and the five headers (Remaining 0)",
    cites: "docs/api.md § Errors, § Headers",
    profile: "core",
    async run(ctx) {
      const { rejected } = await rateLimited(ctx);
      const e = firstError(rejected);
      must(e.code === "RATE_LIMITED", `errors[0].code is ${JSON.stringify(e.code)}, expected "RATE_LIMITED"`, rejected);
      const p = [...errorEnvelopeProblems(rejected), ...headerProblems(rejected, await ctx.limits(), false)];
      must(p.length === 0, p.join("; "), rejected);
      must(intHeader(rejected.headers, "X-RateLimit-Remaining") === 0, "X-RateLimit-Remaining is not 0 on RATE_LIMITED", rejected);
    },
  },
  {
    id: "limits.retry-after",
    title: "Retry-After on RATE_LIMITED is whole seconds in [1, 60] and agrees with X-RateLimit-Reset",
    cites: "docs/api.md § Headers",
    profile: "core",
    async run(ctx) {
      const { rejected } = await rateLimited(ctx);
      const ra = intHeader(rejected.headers, "Retry-After");
      must(ra !== undefined, `Retry-After is ${JSON.stringify(rejected.headers.get("retry-after"))}, expected integer seconds`, rejected);
      must(ra >= 1 && ra <= 60, `Retry-After is ${ra}, expected 1..60 for a one-minute window`, rejected);
      const reset = intHeader(rejected.headers, "X-RateLimit-Reset");
      must(reset !== undefined, "X-RateLimit-Reset missing on 429", rejected);
      // The server's "now" lies between send and receipt; allow whole-second rounding on both sides.
      const lo = reset - rejected.receivedAt / 1000 - 1.5;
      const hi = reset - rejected.sentAt / 1000 + 1.5;
      must(
        ra >= lo && ra <= hi,
        `Retry-After ${ra}s disagrees with X-RateLimit-Reset ${reset} (implies ${lo.toFixed(1)}..${hi.toFixed(1)}s)`,
        rejected,
      );
    },
  },
  {
    id: "limits.message",
    title: "the RATE_LIMITED message reads 'rate limit exceeded: 1 request/minute. Retry in <n>s.' with n = Retry-After",
    cites: "docs/api.md § Metering",
    profile: "core",
    async run(ctx) {
      const { rejected } = await rateLimited(ctx);
      const limits = await ctx.limits();
      const { message } = firstError(rejected);
      const parsed = parseRateLimitedMessage(message);
      must(
        parsed,
        `message ${JSON.stringify(message)} does not match 'rate limit exceeded: <n> request(s)/minute. Retry in <s>s.'`,
        rejected,
      );
      must(parsed.limit === limits.perMinute, `message names ${parsed.limit}/minute, the limit is ${limits.perMinute}`, rejected);
      if (limits.perMinute === 1) must(parsed.noun === "request", `message says '${parsed.noun}' for a limit of 1`, rejected);
      const ra = intHeader(rejected.headers, "Retry-After");
      must(
        ra !== undefined && Math.abs(parsed.retrySeconds - ra) <= 1,
        `message says Retry in ${parsed.retrySeconds}s, Retry-After is ${ra}`,
        rejected,
      );
    },
  },
  {
    id: "limits.users-independent",
    title: "user B is admitted right after user A was refused (windows are per user)",
    cites: "docs/api.md § Metering",
    profile: "core",
    async run(ctx) {
      const { rejected } = await firstRejection(ctx);
      const b = await userBCall(ctx);
      await mustAcceptQuery(ctx, b);
      must(b.status === 200, `user B got ${b.status} right after user A's 429`, rejected, b);
    },
  },
  {
    id: "limits.burst",
    title: "a concurrent burst of one fresh user admits exactly the per-minute limit",
    cites: "docs/api.md § Metering",
    profile: "core",
    async run(ctx) {
      const limits = await ctx.limits();
      const token = await ctx.freshToken("the burst");
      const n = limits.perMinute + 4;
      if (ctx.client.remainingBudget < n)
        throw new Skip(`the burst needs ${n} metered calls, ${ctx.client.remainingBudget} left in --budget`);
      const list = await Promise.all(Array.from({ length: n }, () => ctx.live(token)));
      // An implementation that meters requests it then refuses for their parameters admits one and refuses the rest.
      const other = list.find((e) => e.status !== 200 && e.status !== 429);
      if (other) await mustAcceptQuery(ctx, other);
      const ok = list.filter((e) => e.status === 200).length;
      const refused = list.filter((e) => e.status === 429).length;
      const expected = Math.min(limits.perMinute, limits.perDay);
      must(
        ok === expected && refused === n - expected,
        `burst of ${n}: ${ok} admitted, ${refused} refused; expected ${expected} admitted`,
        ...list.filter((e) => e.status !== 429),
        ...list.filter((e) => e.status === 429).slice(0, 1),
      );
    },
  },
  {
    id: "limits.refusal-not-counted",
    title: "a 429 does not use the daily quota (Daily-Remaining unchanged by it)",
    cites: "docs/api.md § Metering",
    profile: "full",
    async run(ctx) {
      const { seq, rejected } = await rateLimited(ctx);
      const last = seq.oks.at(-1);
      if (!last) throw new Skip("no 200 before the 429 to compare with");
      const before = dailyRemaining(last);
      const after = dailyRemaining(rejected);
      must(
        before !== undefined && after === before,
        `Daily-Remaining ${before} after the last 200 but ${after} on the 429`,
        last,
        rejected,
      );
      const b = await userBCall(ctx);
      const limits = await ctx.limits();
      if (ctx.hasSecret && b.status === 200)
        must(
          dailyRemaining(b) === limits.perDay - 1,
          `fresh user B's first call shows Daily-Remaining ${dailyRemaining(b)}, expected ${limits.perDay - 1}`,
          b,
        );
    },
  },
  {
    id: "limits.window-arithmetic",
    title: "a fresh user's headers count down by one per admitted call; Reset = first call + 60 s; message n = Retry-After",
    cites: "docs/api.md § Metering, § Headers",
    profile: "full",
    async run(ctx) {
      const seq = await minuteSequence(ctx);
      if (!ctx.hasSecret) throw new Skip("needs a fresh user: pass --secret");
      const limits = await ctx.limits();
      seq.oks.forEach((ex, i) => {
        must(
          intHeader(ex.headers, "X-RateLimit-Remaining") === limits.perMinute - 1 - i,
          `call ${i + 1}: X-RateLimit-Remaining ${ex.headers.get("x-ratelimit-remaining")}, expected ${limits.perMinute - 1 - i}`,
          ex,
        );
        must(
          dailyRemaining(ex) === limits.perDay - 1 - i,
          `call ${i + 1}: Daily-Remaining ${ex.headers.get("x-ratelimit-daily-remaining")}, expected ${limits.perDay - 1 - i}`,
          ex,
        );
      });
      const first = seq.oks[0];
      if (!first) throw new Skip("no 200");
      const reset = intHeader(first.headers, "X-RateLimit-Reset") ?? 0;
      must(
        reset >= Math.ceil(first.sentAt / 1000 + 60) - 1 && reset <= Math.ceil(first.receivedAt / 1000 + 60),
        `X-RateLimit-Reset ${reset} is not first call + 60 s`,
        first,
      );
      if (seq.rejected && firstError(seq.rejected).code === "RATE_LIMITED") {
        const n = parseRateLimitedMessage(firstError(seq.rejected).message)?.retrySeconds;
        must(
          n === intHeader(seq.rejected.headers, "Retry-After"),
          `message says ${n}s, Retry-After is ${seq.rejected.headers.get("retry-after")}`,
          seq.rejected,
        );
        const noun = limits.perMinute === 1 ? "request" : "requests";
        must(
          firstError(seq.rejected).message?.includes(`${limits.perMinute} ${noun}/minute`),
          `message lacks '${limits.perMinute} ${noun}/minute'`,
          seq.rejected,
        );
      }
    },
  },
  {
    id: "limits.ietf-headers",
    title: "RateLimit-Policy and RateLimit (IETF draft) accompany the X-RateLimit-* headers",
    cites: "docs/api.md § Headers",
    profile: "full",
    async run(ctx) {
      const seq = await minuteSequence(ctx);
      const limits = await ctx.limits();
      for (const ex of [...seq.oks, ...(seq.rejected ? [seq.rejected] : [])]) {
        const policy = ex.headers.get("ratelimit-policy");
        const expected = `"minute";q=${limits.perMinute};w=60, "day";q=${limits.perDay};w=86400`;
        must(policy === expected, `RateLimit-Policy is ${JSON.stringify(policy)}, expected ${expected}`, ex);
        must(
          /^"(minute|day)";r=\d+;t=\d+$/.test(ex.headers.get("ratelimit") ?? ""),
          `RateLimit is ${JSON.stringify(ex.headers.get("ratelimit"))}`,
          ex,
        );
      }
    },
  },
];
