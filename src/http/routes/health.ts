/** GET /health — public, unmetered; 503 with the failing check when the database does not answer. */
import { isoTime } from "../../clock.ts";
import type { AppDeps, RequestState } from "../context.ts";
import { corsHeaders, PUBLIC } from "../cors.ts";
import { baseMeta, errorBody, fromTemplate, jsonResponse, jsonTemplate } from "../envelope.ts";

/** The healthy answer's headers but X-Request-Id: the route is public (app.ts), so they never change. */
const HEALTHY = jsonTemplate({ ...corsHeaders(PUBLIC, null), "Cache-Control": "no-store" });

/**
 * Synchronous when the check is (SQLite, or PostgreSQL's reused ping): an async function made a
 * promise per request for the app to wait on, ~0.25 µs in-process.
 */
export function handleHealth(deps: AppDeps, request: Request, state: RequestState): Response | Promise<Response> {
  let ok: boolean | Promise<boolean>;
  try {
    // SQLite answers at once; PostgreSQL from its last ping, or a shared one (never the event loop).
    ok = deps.checkDatabase();
  } catch {
    ok = false;
  }
  if (typeof ok === "boolean") return answer(deps, request, state, ok);
  return ok.then(
    (up) => answer(deps, request, state, up),
    () => answer(deps, request, state, false),
  );
}

function answer(deps: AppDeps, request: Request, state: RequestState, up: boolean): Response {
  let database = up ? "ok" : "unavailable";
  const now = deps.clock.now();
  // Reads can answer while writes fail (a full disk): the last write the server tried says so.
  const writeFailure = up ? deps.meter.writeFailure() : null;
  if (writeFailure !== null) database = `write failing: ${writeFailure}`;
  const head = request.method === "HEAD";
  if (database !== "ok" || deps.isShuttingDown()) {
    state.unavailable = writeFailure !== null ? "database_write_failing" : database !== "ok" ? "database_unreachable" : "shutting_down";
    const why =
      writeFailure !== null
        ? `database check failed: writes are failing (${writeFailure}); reads still answer`
        : database !== "ok"
          ? "database check failed: the database does not answer"
          : "shutting down";
    return jsonResponse(
      errorBody([{ code: "SERVICE_UNAVAILABLE", message: why }], baseMeta(now, state.requestId, { checks: { database } })),
      503,
      { ...state.base, "Cache-Control": "no-store", "Retry-After": "5" },
      null,
      head,
    );
  }
  return jsonResponse(
    healthyBody(deps.version, now, Math.floor((now - deps.startedAt) / 1000), state.requestId, deps.build),
    200,
    fromTemplate(HEALTHY, state.requestId),
    null,
    head,
  );
}

/** The build's commit and the schema version the database was brought to at start (the last migration's tag). */
export interface Build {
  commit: string;
  schema: string;
}

let versionOf = "";
let versionJson = '""';

/**
 * The 200 body as a template: it is the most-polled answer, and building and serialising two
 * objects per request was ~8% of its CPU. The request id is 1–64 of [A-Za-z0-9._-] or a UUID
 * (request-id.ts), so it needs no escaping; the test compares with JSON.stringify of the objects.
 * The version's JSON is remembered (JSON.stringify of it was 1.5% of /health's CPU).
 */
export function healthyBody(version: string, now: number, uptimeS: number, requestId: string, build?: Build): string {
  const key = build ? `${version}\u0000${build.commit}\u0000${build.schema}` : version;
  if (key !== versionOf) {
    versionOf = key;
    versionJson =
      JSON.stringify(version) + (build ? `,"commit":${JSON.stringify(build.commit)},"schema":${JSON.stringify(build.schema)}` : "");
  }
  const time = isoTime(now);
  return `{"success":true,"errors":[],"data":{"status":"ok","service":"graph-stats","version":${versionJson},"time":"${time}","uptime_s":${uptimeS},"checks":{"database":"ok"}},"meta":{"generated_at":"${time}","request_id":"${requestId}"}}`;
}
