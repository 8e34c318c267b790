/** The daily quota and its 429 (docs/api.md § Metering, § Errors). */
import { errorEnvelopeProblems, firstError, must } from "../lib/assert.ts";
import { dailyRun } from "../lib/scenarios.ts";
import { intHeader, parseDailyQuotaMessage, secondsToUtcMidnight } from "../lib/spec-forms.ts";
import type { Check } from "../lib/check.ts";
import type { Exchange } from "../lib/types.ts";
import { headerProblems } from "./limits.ts";

/**
 * The refusal once the day is used up is DAILY_QUOTA_EXCEEDED; when the minute window is used up
 * too, the interface does not say which of the two 429s wins, so RATE_LIMITED is as right (core).
 * Our own choice, DAILY_QUOTA_EXCEEDED also when both are (docs/api.md § Errors), is full's matter.
 */
function acceptedCodes(rejected: Exchange, admitted: number, perDay: number): string[] {
  const bothUsedUp =
    admitted >= perDay &&
    intHeader(rejected.headers, "X-RateLimit-Remaining") === 0 &&
    intHeader(rejected.headers, "X-RateLimit-Daily-Remaining") === 0;
  return bothUsedUp ? ["DAILY_QUOTA_EXCEEDED", "RATE_LIMITED"] : ["DAILY_QUOTA_EXCEEDED"];
}

export const DAILY_CHECKS: Check[] = [
  {
    id: "limits.daily-quota",
    title:
      "after the daily limit of admitted calls the next is 429 DAILY_QUOTA_EXCEEDED (or RATE_LIMITED if the minute is used up too) with Retry-After and the headers",
    cites: "docs/api.md § Errors, § Metering",
    profile: "core",
    async run(ctx) {
      const run = await dailyRun(ctx);
      const limits = await ctx.limits();
      const { rejected } = run;
      must(
        run.oks.length <= limits.perDay,
        `${run.oks.length} calls admitted in one day, the daily limit is ${limits.perDay}`,
        ...run.oks.slice(-2),
      );
      if (ctx.hasSecret)
        must(
          run.oks.length === limits.perDay,
          `a fresh user got ${run.oks.length} of ${limits.perDay} daily calls`,
          ...run.oks.slice(-1),
          rejected,
        );
      const e = firstError(rejected);
      const codes = acceptedCodes(rejected, run.oks.length, limits.perDay);
      must(
        rejected.status === 429 && codes.includes(e.code as string),
        `got ${rejected.status} ${e.code}, expected 429 ${codes.join(" or ")}` +
          (codes.length === 1 ? " (RATE_LIMITED only when the minute window is used up too: X-RateLimit-Remaining 0)" : ""),
        rejected,
      );
      const ra = intHeader(rejected.headers, "Retry-After");
      must(
        ra !== undefined && ra >= 1,
        `Retry-After is ${JSON.stringify(rejected.headers.get("retry-after"))}, expected integer seconds >= 1`,
        rejected,
      );
      const p = [...errorEnvelopeProblems(rejected), ...headerProblems(rejected, limits, false)];
      must(p.length === 0, p.join("; "), rejected);
      must(
        intHeader(rejected.headers, "X-RateLimit-Daily-Remaining") === 0,
        `X-RateLimit-Daily-Remaining is not 0 on the daily refusal (${e.code})`,
        rejected,
      );
    },
  },
  {
    id: "limits.daily-details",
    title:
      "DAILY_QUOTA_EXCEEDED also when both windows are used up; Retry-After = seconds to next UTC midnight; message 'daily quota exceeded: N requests/day. Resets at …'",
    cites: "docs/api.md § Metering, § Errors",
    profile: "full",
    async run(ctx) {
      const { rejected } = await dailyRun(ctx);
      const limits = await ctx.limits();
      const { code } = firstError(rejected);
      must(
        code === "DAILY_QUOTA_EXCEEDED",
        `the daily refusal says ${JSON.stringify(code)}, expected "DAILY_QUOTA_EXCEEDED" (also when both windows are used up)`,
        rejected,
      );
      const ra = intHeader(rejected.headers, "Retry-After") ?? -1;
      const expected = secondsToUtcMidnight(rejected.receivedAt);
      must(Math.abs(ra - expected) <= 5, `Retry-After is ${ra}, next UTC midnight is ${Math.round(expected)}s away`, rejected);
      const { message } = firstError(rejected);
      const parsed = parseDailyQuotaMessage(message);
      must(
        parsed && parsed.limit === limits.perDay,
        `message ${JSON.stringify(message)}, expected 'daily quota exceeded: ${limits.perDay} requests/day. Resets at <ISO>.'`,
        rejected,
      );
      const midnight = new Date(rejected.receivedAt + expected * 1000).toISOString().replace(".000Z", "Z");
      must(
        parsed.resetsAt === midnight || parsed.resetsAt === midnight.replace("Z", ".000Z"),
        `message resets at ${parsed.resetsAt}, expected ${midnight}`,
        rejected,
      );
    },
  },
];
