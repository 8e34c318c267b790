/** The stored universes (docs/api.md § GET /v1/universes and GET /v1/universes/{name}): authenticated, unmetered, revalidated by ETag. */
import { errorEnvelopeProblems, firstError, must, rateLimitHeadersPresent } from "../lib/assert.ts";
import { UNIVERSES_PATH, type Context } from "../lib/context.ts";
import type { Check } from "../lib/check.ts";
import type { Exchange } from "../lib/types.ts";

const CITES = "docs/api.md § GET /v1/universes and GET /v1/universes/{name}";
const INTERVALS = new Set(["1m", "5m", "15m", "30m", "1h", "1d", "1w"]);
const LOCAL_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const data = (ex: Exchange): Obj => {
  const d = (ex.json as Obj | undefined)?.data;
  return isObj(d) ? d : {};
};

async function get(ctx: Context, path: string, headers: Record<string, string> = {}): Promise<Exchange> {
  return ctx.client.request(path, { headers: { Authorization: `Bearer ${await ctx.tokenA()}`, ...headers } });
}

/** A 200 in the success envelope, without any rate-limit header (not metered). */
function mustBeUnmetered200(ex: Exchange, what: string): void {
  const body = ex.json as Obj | undefined;
  must(ex.status === 200 && body?.success === true && isObj(body.data), `${what}: answered ${ex.status}, expected 200 with data`, ex);
  const rl = rateLimitHeadersPresent(ex);
  must(rl.length === 0, `${what} is not metered but sent ${rl.join(", ")}`, ex);
}

/** Problems with the fields every universe carries, in the list and alone. */
function universeProblems(u: Obj, where: string): string[] {
  const p: string[] = [];
  if (typeof u.name !== "string") p.push(`${where}.name is ${JSON.stringify(u.name)}`);
  if (!Array.isArray(u.intervals) || !u.intervals.every((i) => INTERVALS.has(i as string)))
    p.push(`${where}.intervals is not a list of intervals`);
  for (const k of ["first_bar", "last_bar"])
    if (!(u[k] === null || (typeof u[k] === "string" && LOCAL_TIME.test(u[k])))) p.push(`${where}.${k} is ${JSON.stringify(u[k])}`);
  if (u.data_source !== "synthetic" && u.data_source !== "imported") p.push(`${where}.data_source is ${JSON.stringify(u.data_source)}`);
  if (!Number.isInteger(u.data_version)) p.push(`${where}.data_version is ${JSON.stringify(u.data_version)}`);
  return p;
}

/** The list, read once per run. */
function listed(ctx: Context): Promise<Exchange> {
  return ctx.once("universes-list", () => get(ctx, UNIVERSES_PATH));
}

export const UNIVERSE_CHECKS: Check[] = [
  {
    id: "universes.token-required",
    title: "/v1/universes without a token is 401 UNAUTHORIZED with the live endpoint's challenge",
    cites: `${CITES}, § Tokens`,
    profile: "full",
    async run(ctx) {
      const ex = await ctx.client.request(UNIVERSES_PATH);
      must(ex.status === 401 && firstError(ex).code === "UNAUTHORIZED", `got ${ex.status} ${firstError(ex).code}`, ex);
      must(firstError(ex).message === "missing bearer token", `message ${JSON.stringify(firstError(ex).message)}`, ex);
      must(/^Bearer realm="graph-stats"/.test(ex.headers.get("www-authenticate") ?? ""), "no Bearer challenge", ex);
      const p = errorEnvelopeProblems(ex);
      must(p.length === 0, p.join("; "), ex);
    },
  },
  {
    id: "universes.list",
    title: "the list answers each universe's name, symbols, intervals, bars, source and version, unmetered, repeatedly",
    cites: CITES,
    profile: "full",
    async run(ctx) {
      const first = await listed(ctx);
      mustBeUnmetered200(first, `GET ${UNIVERSES_PATH}`);
      const universes = data(first).universes;
      must(Array.isArray(universes), "data.universes is not an array", first);
      const p = universes.flatMap((u, i) =>
        isObj(u)
          ? [...universeProblems(u, `universes[${i}]`), ...(Number.isInteger(u.symbols) ? [] : [`universes[${i}].symbols is not a count`])]
          : [`universes[${i}] is not an object`],
      );
      must(p.length === 0, p.join("; "), first);
      // More calls than the live endpoint's default minute allows: a metered route would refuse some.
      for (let i = 0; i < 3; i++) mustBeUnmetered200(await get(ctx, UNIVERSES_PATH), `GET ${UNIVERSES_PATH} again`);
    },
  },
  {
    id: "universes.etag",
    title: "the list carries an ETag, and If-None-Match with it answers 304 without a body",
    cites: CITES,
    profile: "full",
    async run(ctx) {
      const first = await listed(ctx);
      const etag = first.headers.get("etag");
      must(etag !== null, "no ETag on the list", first);
      const again = await get(ctx, UNIVERSES_PATH, { "If-None-Match": etag });
      must(again.status === 304, `If-None-Match ${etag} answered ${again.status}, expected 304`, again);
      must(again.body === "", "the 304 has a body", again);
    },
  },
  {
    id: "universes.show",
    title: "one universe lists each member with name, sector, industry and coverage per interval; an unknown one is 404",
    cites: CITES,
    profile: "full",
    async run(ctx) {
      const names = (data(await listed(ctx)).universes as Obj[] | undefined)?.map((u) => u.name as string) ?? [];
      if (names.length > 0) {
        const ex = await get(ctx, `${UNIVERSES_PATH}/${encodeURIComponent(names[0]!)}`);
        mustBeUnmetered200(ex, `GET ${UNIVERSES_PATH}/${names[0]}`);
        const d = data(ex);
        const p = universeProblems(d, "data");
        if (d.name !== names[0]) p.push(`data.name is ${JSON.stringify(d.name)}`);
        if (!Array.isArray(d.symbols)) p.push("data.symbols is not an array");
        for (const [i, s] of ((d.symbols as unknown[]) ?? []).entries()) {
          if (!isObj(s) || typeof s.symbol !== "string" || !isObj(s.coverage)) {
            p.push(`data.symbols[${i}] lacks symbol or coverage`);
            continue;
          }
          for (const k of ["name", "sector", "industry"]) if (s[k] !== null && typeof s[k] !== "string") p.push(`symbols[${i}].${k}`);
          for (const [iv, c] of Object.entries(s.coverage)) {
            const ok =
              INTERVALS.has(iv) && isObj(c) && Number.isInteger(c.bars) && Number.isInteger(c.missing) && (c.missing as number) >= 0;
            if (!ok) p.push(`symbols[${i}].coverage.${iv} is ${JSON.stringify(c)?.slice(0, 80)}`);
          }
        }
        must(p.length === 0, p.slice(0, 5).join("; "), ex);
      }
      const missing = await get(ctx, `${UNIVERSES_PATH}/conformance-no-such-universe-${ctx.runId}`);
      must(missing.status === 404 && firstError(missing).code === "NOT_FOUND", `unknown universe: ${missing.status}`, missing);
    },
  },
];
