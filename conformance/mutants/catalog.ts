/** The mutants: each breaks exactly one specified behaviour of whatever server sits behind the proxy. */
import { decodeJwt } from "../lib/jwt.ts";

export const LIVE_PATH = "/v1/graph-stats/chart";
const DEMO_PATH = "/v1/demo/chart";

/** A response on its way back to the client; `after` hooks edit it in place. */
export interface Relayed {
  req: Request;
  url: URL;
  status: number;
  headers: Headers;
  body: string;
  json: unknown;
}

/** Per-proxy memory: the last genuine live 200, for replay mutants. */
export interface MutantState {
  lastOk?: { status: number; headers: Headers; body: string };
  firstToken?: string;
}

/** What `before` may do: answer itself, or rewrite the forwarded request. */
export type BeforeResult = Response | { pathAndQuery?: string; authorization?: string } | undefined;

export interface Mutant {
  name: string;
  description: string;
  /** Breaks only what the OpenAPI document says (a status, a field's type, a declared header): for the fuzz profile to kill. */
  documentOnly?: true;
  before?(req: Request, url: URL, state: MutantState): BeforeResult;
  after?(r: Relayed, state: MutantState): void;
}

type Obj = Record<string, any>;
const isLive = (r: Relayed) => r.url.pathname === LIVE_PATH;
const code = (r: Relayed): string | undefined => (r.json as Obj | undefined)?.errors?.[0]?.code;
const message = (r: Relayed): string => String((r.json as Obj | undefined)?.errors?.[0]?.message ?? "");

function editJson(r: Relayed, edit: (body: Obj) => void): void {
  if (typeof r.json !== "object" || r.json === null) return;
  edit(r.json as Obj);
  r.body = JSON.stringify(r.json);
}

/** Turn the response into a 200: the last genuine live 200 replayed, or a minimal success envelope. */
function replayOk(r: Relayed, state: MutantState): void {
  r.status = 200;
  if (state.lastOk) {
    r.headers = new Headers(state.lastOk.headers);
    r.body = state.lastOk.body;
  } else {
    r.headers = new Headers({ "content-type": "application/json; charset=utf-8" });
    r.body = JSON.stringify({ success: true, errors: [], data: { stocks: [] }, meta: { generated_at: new Date().toISOString() } });
  }
  r.json = JSON.parse(r.body);
}

function bearer(req: Request): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "")?.[1];
}

function errorResponse(status: number, codeName: string, msg: string): Response {
  const body = { success: false, errors: [{ code: codeName, message: msg }], data: null, meta: { generated_at: new Date().toISOString() } };
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8" } });
}

function dropHeader(name: string, only429 = false): Mutant {
  return {
    name: `drop-${name.toLowerCase()}`,
    description: `remove ${name} from live responses${only429 ? " (429s)" : ""}`,
    after(r) {
      if (isLive(r) && (!only429 || r.status === 429)) r.headers.delete(name);
    },
  };
}

function acceptWhen(name: string, description: string, when: (r: Relayed) => boolean): Mutant {
  return { name, description, after: (r, s) => void (isLive(r) && when(r) && replayOk(r, s)) };
}

export const MUTANTS: Mutant[] = [
  dropHeader("X-RateLimit-Limit"),
  dropHeader("X-RateLimit-Remaining"),
  dropHeader("X-RateLimit-Daily-Limit"),
  dropHeader("X-RateLimit-Daily-Remaining"),
  dropHeader("X-RateLimit-Reset"),
  dropHeader("Retry-After", true),
  {
    name: "wrong-limit-value",
    description: "X-RateLimit-Limit announces 5 more than the real per-minute limit",
    after: (r) =>
      void (
        isLive(r) &&
        r.headers.has("x-ratelimit-limit") &&
        r.headers.set("x-ratelimit-limit", String(Number(r.headers.get("x-ratelimit-limit")) + 5))
      ),
  },
  {
    name: "remaining-not-decremented",
    description: "X-RateLimit-Remaining on a 200 equals the limit (the call itself not counted)",
    after: (r) => void (isLive(r) && r.status === 200 && r.headers.set("x-ratelimit-remaining", r.headers.get("x-ratelimit-limit") ?? "1")),
  },
  {
    name: "reset-in-milliseconds",
    description: "X-RateLimit-Reset in epoch milliseconds instead of seconds",
    after: (r) =>
      void (
        isLive(r) &&
        r.headers.has("x-ratelimit-reset") &&
        r.headers.set("x-ratelimit-reset", String(Number(r.headers.get("x-ratelimit-reset")) * 1000))
      ),
  },
  {
    name: "rate-limited-as-daily",
    description: "the per-minute 429 says DAILY_QUOTA_EXCEEDED",
    after: (r) => editJson(r, (b) => void (code(r) === "RATE_LIMITED" && (b.errors[0].code = "DAILY_QUOTA_EXCEEDED"))),
  },
  {
    name: "daily-as-rate-limited",
    description: "the daily-quota 429 says RATE_LIMITED",
    after: (r) => editJson(r, (b) => void (code(r) === "DAILY_QUOTA_EXCEEDED" && (b.errors[0].code = "RATE_LIMITED"))),
  },
  {
    name: "retry-after-off",
    description: "Retry-After one hour longer than the truth",
    after: (r) =>
      void (
        r.status === 429 &&
        r.headers.has("retry-after") &&
        r.headers.set("retry-after", String(Number(r.headers.get("retry-after")) + 3600))
      ),
  },
  {
    name: "retry-after-http-date",
    description: "Retry-After as an HTTP date instead of seconds",
    after: (r) => void (r.status === 429 && r.headers.set("retry-after", new Date(Date.now() + 60_000).toUTCString())),
  },
  {
    name: "message-seconds-off",
    description: "the RATE_LIMITED message names 30 s more than Retry-After",
    after: (r) =>
      editJson(
        r,
        (b) =>
          void (
            code(r) === "RATE_LIMITED" &&
            (b.errors[0].message = message(r).replace(/Retry in (\d+)s/, (_m, n) => `Retry in ${Number(n) + 30}s`))
          ),
      ),
  },
  {
    name: "message-reworded",
    description: "the RATE_LIMITED message is reworded ('too many requests')",
    after: (r) => editJson(r, (b) => void (code(r) === "RATE_LIMITED" && (b.errors[0].message = "too many requests, slow down"))),
  },
  acceptWhen("over-admission", "a 429 is replaced by a replayed 200", (r) => r.status === 429),
  acceptWhen("expired-accepted", "the expired-token 401 becomes a 200", (r) => r.status === 401 && /expired/i.test(message(r))),
  acceptWhen(
    "bad-signature-accepted",
    "a badly signed token is accepted (401 → 200)",
    (r) => r.status === 401 && /signature/i.test(message(r)),
  ),
  acceptWhen("alg-none-accepted", "an alg:none token is accepted", (r) => decodeJwt(bearer(r.req) ?? "")?.header.alg === "none"),
  acceptWhen("wrong-algorithm-accepted", "a token whose alg is not HS256 is accepted", (r) => {
    const alg = decodeJwt(bearer(r.req) ?? "")?.header.alg;
    return alg !== undefined && alg !== "HS256" && alg !== "none";
  }),
  acceptWhen("missing-token-accepted", "a live request without Authorization is served", (r) => !r.req.headers.has("authorization")),
  {
    name: "expired-message-generic",
    description: "the expired-token 401 says only 'unauthorized'",
    after: (r) => editJson(r, (b) => void (r.status === 401 && /expired/i.test(message(r)) && (b.errors[0].message = "unauthorized"))),
  },
  {
    name: "data-not-null-on-error",
    description: "error envelopes carry data: {} instead of null",
    after: (r) => editJson(r, (b) => void (r.status >= 400 && (b.data = {}))),
  },
  {
    name: "errors-not-array",
    description: "error envelopes carry errors as a single object",
    after: (r) => editJson(r, (b) => void (r.status >= 400 && Array.isArray(b.errors) && (b.errors = b.errors[0]))),
  },
  {
    name: "success-true-on-error",
    description: "error envelopes say success: true",
    after: (r) => editJson(r, (b) => void (r.status >= 400 && (b.success = true))),
  },
  {
    name: "generated-at-not-iso",
    description: "meta.generated_at in RFC 1123 form instead of ISO 8601",
    after: (r) => editJson(r, (b) => void (b.meta && (b.meta.generated_at = new Date().toUTCString()))),
  },
  {
    name: "generated-at-no-zone",
    description: "meta.generated_at without a UTC designator",
    after: (r) =>
      editJson(
        r,
        (b) => void (b.meta && typeof b.meta.generated_at === "string" && (b.meta.generated_at = b.meta.generated_at.replace(/Z$/, ""))),
      ),
  },
  {
    name: "stocks-not-array",
    description: "data.stocks keyed by symbol (an object) instead of an array",
    after: (r) =>
      editJson(
        r,
        (b) =>
          void (
            isLive(r) &&
            Array.isArray(b.data?.stocks) &&
            (b.data.stocks = Object.fromEntries(b.data.stocks.map((s: Obj, i: number) => [s.symbol ?? i, s])))
          ),
      ),
  },
  {
    name: "rolling-ignored",
    description: "periods is dropped before the request reaches the server",
    before(_req, url) {
      if (url.pathname !== LIVE_PATH || !url.searchParams.has("periods")) return undefined;
      url.searchParams.delete("periods");
      return { pathAndQuery: url.pathname + url.search };
    },
  },
  {
    name: "demo-demands-token",
    description: "the demo endpoint answers 401 without a token",
    before: (req, url) =>
      url.pathname === DEMO_PATH && !req.headers.has("authorization")
        ? errorResponse(401, "UNAUTHORIZED", "missing bearer token")
        : undefined,
  },
  {
    name: "demo-rejects-garbage-auth",
    description: "the demo endpoint answers 401 to a garbage Authorization header",
    before: (req, url) =>
      url.pathname === DEMO_PATH && req.headers.has("authorization") ? errorResponse(401, "UNAUTHORIZED", "malformed token") : undefined,
  },
  {
    name: "health-metered",
    description: "/health sends rate-limit headers as if metered",
    after(r) {
      if (r.url.pathname !== "/health") return;
      r.headers.set("X-RateLimit-Limit", "1");
      r.headers.set("X-RateLimit-Remaining", "0");
    },
  },
  {
    name: "refusal-counted",
    description: "a 429 reports one less X-RateLimit-Daily-Remaining, as if it had been counted",
    after: (r) =>
      void (
        r.status === 429 &&
        r.headers.has("x-ratelimit-daily-remaining") &&
        r.headers.set("x-ratelimit-daily-remaining", String(Math.max(0, Number(r.headers.get("x-ratelimit-daily-remaining")) - 1)))
      ),
  },
  {
    name: "shared-window",
    description: "every live request is forwarded as the first user seen (windows not per user)",
    before(req, url, state) {
      const token = bearer(req);
      if (url.pathname !== LIVE_PATH || !token || decodeJwt(token)?.payload.exp === undefined) return undefined;
      if ((decodeJwt(token)!.payload.exp as number) * 1000 < Date.now()) return undefined;
      state.firstToken ??= token;
      return { authorization: `Bearer ${state.firstToken}` };
    },
  },
  // Mutants only a document-driven check can catch: the interface's own words say nothing of these.
  {
    name: "unknown-parameter-422",
    description: "an unknown parameter's 400 answers 422, a status the document does not declare",
    documentOnly: true,
    after: (r) =>
      void (isLive(r) && r.status === 400 && /unknown parameter/.test(JSON.stringify((r.json as Obj)?.errors ?? "")) && (r.status = 422)),
  },
  {
    name: "field-wrong-type",
    description: "meta.diagnostics.n_in_graph of a live JSON 200 is a string instead of an integer",
    documentOnly: true,
    after: (r) =>
      editJson(
        r,
        (b) =>
          void (
            isLive(r) &&
            r.status === 200 &&
            typeof b.meta?.diagnostics?.n_in_graph === "number" &&
            (b.meta.diagnostics.n_in_graph = String(b.meta.diagnostics.n_in_graph))
          ),
      ),
  },
  {
    name: "drop-cache-control",
    description: "the demo and /health answer without their documented Cache-Control",
    documentOnly: true,
    after: (r) => void ((r.url.pathname === DEMO_PATH || r.url.pathname === "/health") && r.headers.delete("cache-control")),
  },
  {
    name: "no-ratelimit-on-400",
    description: "a live 400 (a refused parameter) carries none of the documented X-RateLimit-* headers",
    documentOnly: true,
    after(r) {
      if (!isLive(r) || r.status !== 400) return;
      for (const h of [...r.headers.keys()]) if (/^x-ratelimit-|^ratelimit/i.test(h)) r.headers.delete(h);
    },
  },
  {
    name: "500-at-lookback-max",
    description: "lookback at its documented maximum (1000) answers 500 INTERNAL_ERROR",
    documentOnly: true,
    before: (_req, url) =>
      url.pathname === LIVE_PATH && url.searchParams.getAll("lookback").includes("1000")
        ? errorResponse(500, "INTERNAL_ERROR", "internal error (request conformance-mutant)")
        : undefined,
  },
];
