/**
 * GET /v1/graph-stats/chart — the metered live endpoint: parse → prepare → metered(compute).
 * Parsing and preparing decide, from the query and the data's metadata, everything that can be
 * refused before anything counts; the metering wrapper (../metered.ts) admits, runs the
 * computation, settles the count and the audit row, and adds the rate-limit headers.
 */
import type { ChartParams } from "../../engine/types.ts";
import type { AuthedUser } from "../auth-gate.ts";
import { WorkBoundFull } from "../../compute/admitted-work.ts";
import type { PreparedChart } from "../../compute/chart-service.ts";
import type { Computed } from "../../compute/compute-messages.ts";
import type { Format } from "../../compute/serialise.ts";
import type { AppDeps, RequestState } from "../context.ts";
import { largeResponse, OFF_LOOP_GZIP_BYTES } from "../envelope.ts";
import { liveBody, liveMeta } from "../live-body.ts";
import { isoTime } from "../../clock.ts";
import { HttpError } from "../http-error.ts";
import { metered, NO_STORE } from "../metered.ts";
import { parseChartParams } from "../params/params.ts";
import { Memo } from "../../memo.ts";

/** docs/api.md § GET /v1/graph-stats/chart: a query string over 8 KiB is refused before any other work. */
export const MAX_QUERY_BYTES = 8 * 1024;

/**
 * Who is calling and with which query, when not from the request itself: the dashboard runs a
 * signed-in user's query through this same metered path, authenticated by its session.
 */
export interface ChartCaller {
  authenticate(): Promise<AuthedUser>;
  query: string;
}

export function handleChart(deps: AppDeps, request: Request, state: RequestState, caller?: ChartCaller): Promise<Response> {
  const q = request.url.indexOf("?");
  const query = caller ? caller.query : q < 0 ? "" : request.url.slice(q + 1);
  const authorization = request.headers.get("authorization");
  const identify = deps.identify;
  return metered(deps, request, state, {
    auditParams: query.slice(0, 1024),
    authenticate: () => (caller ? caller.authenticate() : deps.auth(authorization)),
    identify: caller || !identify ? undefined : () => identify(authorization),
    prepare: async (user) => {
      const parsed = parse(query, deps.defaultUniverse);
      const prepared = await deps.chart.prepare(parsed.params, parsed.format, user.id, `${deps.defaultUniverse}\u0000${query}`);
      const share = deps.chart.reserve(prepared);
      if ("full" in share) throw new WorkBoundFull(share.full.retryAfterSeconds, share.full.jobs);
      return { parsed, prepared, release: share.release, inHand: share.inHand };
    },
    done: ({ release }) => release(),
    answered: ({ inHand }) => inHand !== undefined,
    cost: ({ prepared }) => prepared.cost,
    work: async ({ parsed, prepared, inHand }, headers, signal) => answer(deps, request, state, parsed, prepared, inHand, headers, signal),
  });
}

/** A parsed query: the engine's parameters, the format, and both as meta.params echoes them. */
interface ParsedQuery {
  params: ChartParams;
  format: Format;
  echo: ChartParams & { format: Format };
}

/**
 * Queries parsed, by default universe and query string: parsing is a pure function of the two, and
 * a repeated question (the common case of a metered API) skips it. Refusals are not kept.
 */
const parsedQueries = new Memo<ParsedQuery>(2 * 2 ** 20, (p) => 2 * JSON.stringify(p.echo).length + 256);

function parse(query: string, defaultUniverse: string): ParsedQuery {
  const memoKey = `${defaultUniverse}\u0000${query}`;
  const known = parsedQueries.get(memoKey);
  if (known) return known;
  const bytes = Buffer.byteLength(query);
  if (bytes > MAX_QUERY_BYTES)
    throw new HttpError(400, "BAD_REQUEST", `query string is ${bytes} bytes; at most ${MAX_QUERY_BYTES} are allowed`);
  const parsed = parseChartParams(new URLSearchParams(query), { defaultUniverse });
  if (!parsed.ok) throw new HttpError(400, "BAD_REQUEST", parsed.errors);
  // Frozen: every request with this query shares the objects.
  const { params, format } = parsed;
  return parsedQueries.set(memoKey, { params: Object.freeze(params), format, echo: Object.freeze({ ...params, format }) });
}

/** Computes (or takes from the cache) and renders the 200 in the requested format. */
async function answer(
  deps: AppDeps,
  request: Request,
  state: RequestState,
  { echo, format }: ParsedQuery,
  prepared: PreparedChart,
  inHand: Computed | undefined,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<Response> {
  const t0 = performance.now();
  const outcome = await deps.chart.compute(prepared, signal, inHand);
  const computeMs = Math.round((performance.now() - t0) * 1000) / 1000;
  deps.metrics?.computed(computeMs);
  // Tidy exports carry the data only (rendered on a compute thread); request id and rate limits stay in the headers.
  let body: string | Uint8Array = outcome.body;
  if (format === "json") {
    const meta = liveMeta(
      outcome.result,
      echo,
      () => ({
        // The effective as-of: the date of the bar actually used when the caller gave none.
        params: echo.asof === null ? { ...echo, asof: outcome.diagnostics.last_asof.slice(0, 10) } : echo,
        diagnostics: outcome.diagnostics,
      }),
      isoTime(deps.clock.now()),
      state.requestId,
      computeMs,
      outcome.cached,
    );
    body = liveBody(outcome.result, outcome.body, meta);
  }
  // A body gzipped off the event loop is read later: it gets its own copy of the shared buffer.
  if (typeof body !== "string" && body.length > OFF_LOOP_GZIP_BYTES) body = Buffer.from(body);
  return largeResponse(
    body,
    200,
    { ...state.base, ...headers, ...NO_STORE },
    request.headers.get("accept-encoding"),
    request.method === "HEAD",
    TIDY_TYPES[format],
  );
}

const TIDY_TYPES = {
  json: "application/json; charset=utf-8",
  csv: "text/csv; charset=utf-8; header=present",
  ndjson: "application/x-ndjson; charset=utf-8",
} as const;
