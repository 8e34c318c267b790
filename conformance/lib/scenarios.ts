/** Request sequences several checks judge; each runs at most once per run (memoised on the context). */
import { type Context, DEMO_PATH } from "./context.ts";
import { queryRefusal } from "./plain-query.ts";
import { intHeader } from "./spec-forms.ts";
import { type Exchange, Failure, REAL_TIME, Skip } from "./types.ts";

function errorCode(ex: Exchange): string | undefined {
  const errors = (ex.json as { errors?: unknown })?.errors;
  const first = Array.isArray(errors) ? (errors[0] as { code?: unknown }) : undefined;
  return typeof first?.code === "string" ? first.code : undefined;
}

export { errorCode };

/**
 * A plain request (its query from plainQuery) answered with a 4xx other than 401 and 429 says the
 * query is wrong for this implementation, not that a limit or a token was: skip saying so (pass
 * --query), or fail when the query was given with --query or built from the implementation's own
 * document. Returns quietly for any other answer, which the calling check judges.
 */
export async function mustAcceptQuery(ctx: Context, ex: Exchange): Promise<void> {
  const path = ex.path.split("?")[0]!;
  const refusal = queryRefusal(ex, path === DEMO_PATH ? "the demo" : "the live endpoint", await ctx.plainQuery(path));
  if (!refusal) return;
  if (refusal.vouched) throw new Failure(refusal.reason, [ex]);
  throw new Skip(refusal.reason);
}

export interface MinuteSequence {
  /** 200s before the first 429, in order. */
  oks: Exchange[];
  /** The first 429, if one was reached. */
  rejected?: Exchange;
  /** Why no 429 was reached (budget), if so. */
  stoppedBecause?: string;
  /** The answer that was neither 200 nor 429 and ended the sequence (a 4xx to the query, a 5xx), if so. */
  other?: Exchange;
}

/**
 * User A calls the live endpoint back to back until refused: at most per-minute limit + 1 calls.
 * With the default limits that is one 200 and one 429.
 */
export function minuteSequence(ctx: Context): Promise<MinuteSequence> {
  return ctx.once("minute-seq", async () => {
    const token = await ctx.tokenA();
    const first = await ctx.firstLiveA();
    const limits = await ctx.limits();
    const seq: MinuteSequence = { oks: [] };
    let ex = first;
    for (let i = 1; ; i++) {
      if (ex.status === 429) {
        seq.rejected = ex;
        return seq;
      }
      if (ex.status !== 200) {
        seq.other = ex;
        return seq;
      }
      seq.oks.push(ex);
      if (i > limits.perMinute) return seq;
      try {
        ex = await ctx.live(token);
      } catch (err) {
        if (err instanceof Skip) {
          seq.stoppedBecause = err.message;
          return seq;
        }
        throw err;
      }
    }
  });
}

/** User A's sequence, once it is known that its query was not refused (see mustAcceptQuery). */
export async function admittedSequence(ctx: Context): Promise<MinuteSequence> {
  const seq = await minuteSequence(ctx);
  if (seq.other) await mustAcceptQuery(ctx, seq.other);
  return seq;
}

/** The first 429 of user A; skips with the reason when none was reached. */
export async function firstRejection(ctx: Context): Promise<{ seq: MinuteSequence; rejected: Exchange }> {
  const seq = await admittedSequence(ctx);
  if (!seq.rejected) {
    if (seq.other) throw new Skip(`user A's call answered ${seq.other.status}, neither 200 nor 429`);
    throw new Skip(seq.stoppedBecause ?? `user A was never refused (statuses: ${seq.oks.map((e) => e.status).join(",") || "none"})`);
  }
  return { seq, rejected: seq.rejected };
}

/** The first RATE_LIMITED 429 of user A; skips when A hit the daily quota instead. */
export async function rateLimited(ctx: Context): Promise<{ seq: MinuteSequence; rejected: Exchange }> {
  const r = await firstRejection(ctx);
  const last = r.seq.oks.at(-1);
  const dailyLeft = last ? intHeader(last.headers, "X-RateLimit-Daily-Remaining") : undefined;
  if (dailyLeft === 0) throw new Skip("user A reached the daily quota before the per-minute limit (daily limit is the smaller)");
  return r;
}

/** One 200 of user A (the first call of the minute sequence). */
export async function firstOk(ctx: Context): Promise<Exchange> {
  const seq = await admittedSequence(ctx);
  const ok = seq.oks[0];
  if (!ok) {
    if (seq.rejected)
      throw new Skip(`user A got 429 ${errorCode(seq.rejected) ?? ""} on its first call (its window is in use: wait, or pass --secret)`);
    throw new Skip(seq.other ? `user A's first call answered ${seq.other.status}, not 200` : (seq.stoppedBecause ?? "user A made no call"));
  }
  return ok;
}

/** User B's first call (a rolling request, periods=3), made right after user A was refused. */
export function userBCall(ctx: Context): Promise<Exchange> {
  return ctx.once("user-b", async () => {
    const token = await ctx.tokenB();
    await minuteSequence(ctx).catch(() => undefined);
    return ctx.live(token, await ctx.rollingQuery());
  });
}

export interface DailyRun {
  oks: Exchange[];
  rejected: Exchange;
  limited: Exchange[];
}

/**
 * A user calls until the daily quota refuses it. Uses a fresh user (--secret) when possible. Waits out
 * RATE_LIMITED only with --slow; otherwise skips when the per-minute limit would be hit first.
 */
export function dailyRun(ctx: Context): Promise<DailyRun> {
  return ctx.once("daily", async () => {
    const limits = await ctx.limits();
    if (limits.perMinute < limits.perDay && !ctx.options.slow) {
      throw new Skip(
        `exhausting the daily quota (${limits.perDay}) at ${limits.perMinute}/minute takes real time: pass --slow, ` +
          `or use a test deployment with per-minute >= per-day and --limits-from-headers`,
      );
    }
    const token = ctx.hasSecret ? await ctx.freshToken("daily quota") : await ctx.tokenA();
    const oks: Exchange[] = [];
    const limited: Exchange[] = [];
    for (let guard = 0; guard < limits.perDay * 3 + 10; guard++) {
      const ex = await ctx.live(token);
      if (ex.status === 200) {
        oks.push(ex);
        // More 200s than the daily limit is over-admission: hand it to the check as the "refusal" to judge.
        if (oks.length > limits.perDay) return { oks, rejected: ex, limited };
      } else if (ex.status === 429 && errorCode(ex) === "DAILY_QUOTA_EXCEEDED") return { oks, rejected: ex, limited };
      else if (ex.status === 429 && errorCode(ex) === "RATE_LIMITED") {
        // A RATE_LIMITED once the day's quota is used up is the daily refusal with the wrong code.
        if (oks.length >= limits.perDay) return { oks, rejected: ex, limited };
        limited.push(ex);
        if (!ctx.options.slow) throw new Skip("hit RATE_LIMITED before the daily quota; pass --slow");
        const wait = intHeader(ex.headers, "Retry-After") ?? 60;
        await (ctx.options.clock ?? REAL_TIME).sleep(Math.min(wait, 120) * 1000 + 200);
      } else {
        await mustAcceptQuery(ctx, ex);
        return { oks, rejected: ex, limited };
      }
    }
    throw new Skip(`the daily quota never refused after ${limits.perDay * 3 + 10} calls`);
  });
}
