/** The live endpoint's success responses (docs/api.md § The envelope, § The answer, § Headers). */
import { errorEnvelopeProblems, firstError, must, successEnvelopeProblems } from "../lib/assert.ts";
import { withParam } from "../lib/plain-query.ts";
import { firstOk, mustAcceptQuery, userBCall } from "../lib/scenarios.ts";
import { LIVE_PATH } from "../lib/context.ts";
import { isIsoUtc, isToIsoStringForm } from "../lib/spec-forms.ts";
import { intHeader } from "../lib/spec-forms.ts";
import type { Check } from "../lib/check.ts";
import type { Exchange } from "../lib/types.ts";

const meta = (ex: Exchange) => (ex.json as { meta?: { generated_at?: unknown } } | undefined)?.meta;
const data = (ex: Exchange) => (ex.json as { data?: Record<string, unknown> } | undefined)?.data;

export const LIVE_CHECKS: Check[] = [
  {
    id: "live.ok",
    title: "a valid token gets 200 with success true, data.stocks an array, meta.generated_at set",
    cites: "docs/api.md § The envelope, § The answer",
    profile: "core",
    async run(ctx) {
      const ex = await firstOk(ctx);
      const p = successEnvelopeProblems(ex);
      must(p.length === 0, `live 200 envelope: ${p.join("; ")}`, ex);
    },
  },
  {
    id: "live.generated-at",
    title: "meta.generated_at is an ISO 8601 UTC timestamp close to now",
    cites: "docs/api.md § The envelope",
    profile: "core",
    async run(ctx) {
      const ex = await firstOk(ctx);
      const g = meta(ex)?.generated_at;
      must(isIsoUtc(g), `meta.generated_at is ${JSON.stringify(g)}, expected ISO 8601 UTC`, ex);
      const skewS = Math.abs(Date.parse(g as string) - ex.receivedAt) / 1000;
      must(skewS < 300, `meta.generated_at ${g} is ${Math.round(skewS)}s away from the client's clock`, ex);
    },
  },
  {
    id: "live.generated-at-form",
    title: "meta.generated_at has exactly the toISOString() form (milliseconds, Z)",
    cites: "docs/api.md § The envelope",
    profile: "full",
    async run(ctx) {
      const ex = await firstOk(ctx);
      must(
        isToIsoStringForm(meta(ex)?.generated_at),
        `meta.generated_at is ${JSON.stringify(meta(ex)?.generated_at)}, expected YYYY-MM-DDTHH:MM:SS.sssZ`,
        ex,
      );
    },
  },
  {
    id: "live.rolling",
    title: "periods > 1 returns 200 with data.stocks an array (a rolling series in one response)",
    cites: "docs/api.md § The answer",
    profile: "core",
    async run(ctx) {
      const ex = await userBCall(ctx);
      await mustAcceptQuery(ctx, ex);
      must(ex.status === 200, `periods=3 by user B answered ${ex.status}, expected 200`, ex);
      const p = successEnvelopeProblems(ex);
      must(p.length === 0, `rolling envelope: ${p.join("; ")}`, ex);
    },
  },
  {
    id: "live.rolling-shape",
    title: "periods=3 returns type rolling, 3 as-of dates and 3 points per stock",
    cites: "docs/api.md § The answer",
    profile: "full",
    async run(ctx) {
      const ex = await userBCall(ctx);
      must(ex.status === 200, `periods=3 answered ${ex.status}, expected 200`, ex);
      const d = data(ex);
      must(d?.type === "rolling", `data.type is ${JSON.stringify(d?.type)}, expected "rolling"`, ex);
      must(Array.isArray(d?.asof_dates) && d.asof_dates.length === 3, "data.asof_dates does not hold 3 dates", ex);
      const stocks = d?.stocks as { points?: unknown[] }[];
      must(stocks.length > 0 && stocks.every((s) => Array.isArray(s.points) && s.points.length === 3), "not every stock has 3 points", ex);
    },
  },
  {
    id: "live.snapshot-shape",
    title: "periods=1 returns type snapshot with per-stock symbols",
    cites: "docs/api.md § The answer",
    profile: "full",
    async run(ctx) {
      const ex = await firstOk(ctx);
      const d = data(ex);
      must(d?.type === "snapshot", `data.type is ${JSON.stringify(d?.type)}, expected "snapshot"`, ex);
      const stocks = d?.stocks as { symbol?: unknown }[];
      must(stocks.length > 0 && stocks.every((s) => typeof s.symbol === "string"), "data.stocks is empty or lacks symbols", ex);
    },
  },
  {
    id: "live.headers",
    title: "live responses carry Cache-Control: no-store, JSON content type and X-Request-Id",
    cites: "docs/api.md § The envelope, § Headers",
    profile: "full",
    async run(ctx) {
      const ex = await firstOk(ctx);
      must(
        /no-store/.test(ex.headers.get("cache-control") ?? ""),
        `Cache-Control is ${ex.headers.get("cache-control")}, expected no-store`,
        ex,
      );
      must(
        /^application\/json;\s*charset=utf-8$/i.test(ex.headers.get("content-type") ?? ""),
        `Content-Type is ${ex.headers.get("content-type")}`,
        ex,
      );
      must(ex.headers.get("x-request-id"), "no X-Request-Id", ex);
    },
  },
  {
    id: "live.bad-request",
    title: "a bad parameter gets 400 BAD_REQUEST naming it, and does not use the user's quota",
    cites: "docs/api.md § GET /v1/graph-stats/chart, § Metering",
    profile: "full",
    async run(ctx) {
      const token = await ctx.freshToken("the 400 check");
      const limits = await ctx.limits();
      const bad = await ctx.live(token, withParam((await ctx.plainQuery(LIVE_PATH)).query, "lookback", "5000"));
      const e = firstError(bad);
      must(bad.status === 400 && e.code === "BAD_REQUEST", `lookback=5000 answered ${bad.status} ${e.code}, expected 400 BAD_REQUEST`, bad);
      must(
        /lookback/.test(e.message ?? "") && /5000/.test(e.message ?? ""),
        `message ${JSON.stringify(e.message)} does not name the parameter and value`,
        bad,
      );
      const p = errorEnvelopeProblems(bad);
      must(p.length === 0, p.join("; "), bad);
      const ok = await ctx.live(token);
      must(ok.status === 200, `the same fresh user's next valid call answered ${ok.status}: the 400 used its minute slot`, bad, ok);
      must(
        intHeader(ok.headers, "X-RateLimit-Daily-Remaining") === limits.perDay - 1,
        `Daily-Remaining after one admitted call is ${ok.headers.get("x-ratelimit-daily-remaining")}, expected ${limits.perDay - 1}`,
        bad,
        ok,
      );
    },
  },
];
