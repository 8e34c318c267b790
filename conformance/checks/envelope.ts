/** Envelope sweeps over every recorded response, plus the 404 and 405 of docs/api.md § Errors. */
import { envelopeProblems, errorEnvelopeProblems, firstError, must } from "../lib/assert.ts";
import { LIVE_PATH, UNIVERSES_PATH, type Context } from "../lib/context.ts";
import type { Check } from "../lib/check.ts";
import type { Exchange } from "../lib/types.ts";

/** Routes whose data is not a chart: the data.stocks rule is for chart responses. */
const NOT_CHARTS = ["/health", UNIVERSES_PATH];

function sweep(list: Exchange[]): void {
  // A 304 (If-None-Match on /v1/universes) has no body by definition (RFC 9110 § 15.4.5).
  for (const ex of list.filter((e) => e.status !== 304)) {
    const p = envelopeProblems(ex).filter((s) => !(NOT_CHARTS.some((r) => ex.path.startsWith(r)) && s.includes("stocks")));
    must(p.length === 0, `${ex.method} ${ex.path} → ${ex.status}: ${p.join("; ")}`, ex);
  }
}

/** Make sure at least one live error exists even when run alone (a missing token costs nothing). */
async function ensureLiveError(ctx: Context): Promise<void> {
  if (!ctx.client.log.some((e) => e.path.startsWith(LIVE_PATH) && e.status >= 400)) await ctx.live(undefined);
}

export const ENVELOPE_CHECKS: Check[] = [
  {
    id: "envelope.live",
    title: "every live-endpoint response this run saw (200, 401, 429, …) carries the envelope",
    cites: "docs/api.md § The envelope, § Errors",
    profile: "core",
    async run(ctx) {
      await ensureLiveError(ctx);
      sweep(ctx.client.log.filter((e) => e.path.startsWith(LIVE_PATH)));
    },
  },
  {
    id: "envelope.all-routes",
    title: "every response of every route (health, demo, 404, 405) carries the envelope as application/json; charset=utf-8",
    cites: "docs/api.md § The envelope",
    profile: "full",
    async run(ctx) {
      await ensureLiveError(ctx);
      await ctx.client.request("/health");
      await ctx.client.request("/v1/demo/chart");
      sweep(ctx.client.log);
      for (const ex of ctx.client.log.filter((e) => e.status !== 304)) {
        must(
          /^application\/json;\s*charset=utf-8$/i.test(ex.headers.get("content-type") ?? ""),
          `${ex.method} ${ex.path}: Content-Type ${ex.headers.get("content-type")}`,
          ex,
        );
      }
    },
  },
  {
    id: "http.not-found",
    title: "an unknown route answers 404 NOT_FOUND in the error envelope",
    cites: "docs/api.md § Errors",
    profile: "full",
    async run(ctx) {
      const ex = await ctx.client.request("/v1/no-such-route");
      must(ex.status === 404 && firstError(ex).code === "NOT_FOUND", `got ${ex.status} ${firstError(ex).code}`, ex);
      const p = errorEnvelopeProblems(ex);
      must(p.length === 0, p.join("; "), ex);
    },
  },
  {
    id: "http.method-not-allowed",
    title: "POST on a known path answers 405 METHOD_NOT_ALLOWED with Allow: GET",
    cites: "docs/api.md § Errors",
    profile: "full",
    async run(ctx) {
      const ex = await ctx.client.request("/health", { method: "POST" });
      must(ex.status === 405 && firstError(ex).code === "METHOD_NOT_ALLOWED", `got ${ex.status} ${firstError(ex).code}`, ex);
      must(/\bGET\b/.test(ex.headers.get("allow") ?? ""), `Allow is ${JSON.stringify(ex.headers.get("allow"))}`, ex);
    },
  },
  {
    id: "http.request-id",
    title: "a valid X-Request-Id is echoed back",
    cites: "docs/api.md § Headers",
    profile: "full",
    async run(ctx) {
      const id = `conf-${ctx.runId}`;
      const ex = await ctx.client.request("/health", { headers: { "X-Request-Id": id } });
      must(ex.headers.get("x-request-id") === id, `X-Request-Id is ${JSON.stringify(ex.headers.get("x-request-id"))}, expected ${id}`, ex);
    },
  },
];
