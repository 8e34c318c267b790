/** Health and demo: public, unmetered, never asking for a token (docs/api.md § GET /health, § GET /v1/demo/chart). */
import { errorEnvelopeProblems, must, rateLimitHeadersPresent, successEnvelopeProblems } from "../lib/assert.ts";
import { DEMO_PATH, HEALTH_PATH, type Context } from "../lib/context.ts";
import { mustAcceptQuery } from "../lib/scenarios.ts";
import type { Check } from "../lib/check.ts";
import type { Exchange } from "../lib/types.ts";

const GARBAGE_AUTH = ["garbage", "Bearer not-a-token", "Bearer a.b.c", "Basic dXNlcjpwYXNz"];

/** `n` concurrent GETs of `path` (the demo with its plain query, see Context.plainQuery). */
async function burst(ctx: Context, path: string, n: number, auth?: string): Promise<Exchange[]> {
  const headers: Record<string, string> = auth ? { Authorization: auth } : {};
  return Promise.all(Array.from({ length: n }, () => (path === DEMO_PATH ? ctx.demo(headers) : ctx.client.request(path, { headers }))));
}

/** The demo refusing its plain query without any Authorization is the query's matter, not the token's (mustAcceptQuery). */
async function mustAcceptDemoQuery(ctx: Context, path: string, list?: Exchange[]): Promise<void> {
  if (path !== DEMO_PATH) return;
  for (const ex of list ?? (await burst(ctx, path, 1))) await mustAcceptQuery(ctx, ex);
}

function mustBePublicAndUnmetered(list: Exchange[], what: string): void {
  for (const ex of list) {
    must(ex.status === 200, `${what} answered ${ex.status}, expected 200 without any token`, ex);
    const rl = rateLimitHeadersPresent(ex);
    must(rl.length === 0, `${what} is unmetered but sent rate-limit headers: ${rl.join(", ")}`, ex);
  }
}

/** Both public endpoints, checked the same way; `cites` is the endpoint's section of docs/api.md. */
function publicChecks(name: "health" | "demo", path: string, cites: string, authProfile: "core" | "full"): Check[] {
  return [
    {
      id: `${name}.public-unmetered`,
      title: `${path} answers 200 without a token, repeatedly, with no rate-limit headers`,
      cites,
      profile: "core",
      async run(ctx) {
        // More calls than the per-minute limit of the live endpoint: a metered route would refuse some.
        const list = await burst(ctx, path, 4);
        await mustAcceptDemoQuery(ctx, path, list);
        mustBePublicAndUnmetered(list, `GET ${path}`);
      },
    },
    {
      id: `${name}.ignores-authorization`,
      title: `${path} ignores any Authorization header, even garbage or an expired token`,
      cites,
      profile: authProfile,
      async run(ctx) {
        await mustAcceptDemoQuery(ctx, path);
        const list: Exchange[] = [];
        for (const auth of GARBAGE_AUTH) list.push(...(await burst(ctx, path, 1, auth)));
        const expired = await ctx.expiredToken().catch(() => undefined);
        if (expired) list.push(...(await burst(ctx, path, 1, `Bearer ${expired}`)));
        mustBePublicAndUnmetered(list, `GET ${path} with a bad Authorization header`);
      },
    },
  ];
}

export const PUBLIC_CHECKS: Check[] = [
  ...publicChecks("health", HEALTH_PATH, "docs/api.md § GET /health", "full"),
  ...publicChecks("demo", DEMO_PATH, "docs/api.md § GET /v1/demo/chart", "core"),
  {
    id: "health.body",
    title: "/health reports status ok in the envelope",
    cites: "docs/api.md § GET /health, § The envelope",
    profile: "full",
    async run(ctx) {
      const ex = await ctx.client.request(HEALTH_PATH);
      const p = ex.status === 200 ? successEnvelopeProblems(ex).filter((s) => !s.includes("stocks")) : errorEnvelopeProblems(ex);
      must(p.length === 0, `health envelope: ${p.join("; ")}`, ex);
      const data = (ex.json as { data?: { status?: unknown; service?: unknown } }).data;
      must(
        data?.status === "ok" && data?.service === "graph-stats",
        `health data.status/service are ${JSON.stringify(data?.status)}/${JSON.stringify(data?.service)}, expected "ok"/"graph-stats"`,
        ex,
      );
    },
  },
  {
    id: "demo.fixed",
    title: "/v1/demo/chart is a fixed snapshot: identical data across calls, meta.demo true",
    cites: "docs/api.md § GET /v1/demo/chart",
    profile: "full",
    async run(ctx) {
      const [a, b] = await burst(ctx, DEMO_PATH, 2);
      for (const ex of [a!, b!]) {
        const p = successEnvelopeProblems(ex);
        must(p.length === 0, `demo envelope: ${p.join("; ")}`, ex);
        must((ex.json as { meta: { demo?: unknown } }).meta.demo === true, "demo meta.demo is not true", ex);
      }
      const data = (ex: Exchange) => JSON.stringify((ex.json as { data: unknown }).data);
      must(data(a!) === data(b!), "two demo calls returned different data", a!, b!);
    },
  },
];
