/** GET /health — public, unmetered; 503 with the failing check when the database does not answer. */
import { isoTime } from "../../clock.ts";
import type { AppDeps, RequestState } from "../context.ts";
import { baseMeta, errorBody, jsonResponse } from "../envelope.ts";

export async function handleHealth(deps: AppDeps, request: Request, state: RequestState): Promise<Response> {
  let database = "ok";
  try {
    // SQLite answers at once; PostgreSQL from its last ping, or a shared one (never the event loop).
    const ok = deps.checkDatabase();
    if (!(ok === true || (ok !== false && (await ok)))) database = "unavailable";
  } catch {
    database = "unavailable";
  }
  const now = deps.clock.now();
  // Reads can answer while writes fail (a full disk): the last write the server tried says so.
  const writeFailure = database === "ok" ? deps.limiter.writeFailure() : null;
  if (writeFailure !== null) database = `write failing: ${writeFailure}`;
  // state.base is this request's own object; adding to it saves a copy on the most-polled route.
  const headers = state.base;
  headers["Cache-Control"] = "no-store";
  const head = request.method === "HEAD";
  if (database !== "ok" || deps.isShuttingDown()) {
    const why =
      writeFailure !== null
        ? `database check failed: writes are failing (${writeFailure}); reads still answer`
        : database !== "ok"
          ? "database check failed: the database does not answer"
          : "shutting down";
    return jsonResponse(
      errorBody([{ code: "SERVICE_UNAVAILABLE", message: why }], baseMeta(now, state.requestId, { checks: { database } })),
      503,
      { ...headers, "Retry-After": "5" },
      null,
      head,
    );
  }
  return jsonResponse(healthyBody(deps.version, now, Math.floor((now - deps.startedAt) / 1000), state.requestId), 200, headers, null, head);
}

/**
 * The 200 body as a template: it is the most-polled answer, and building and serialising two
 * objects per request was ~8% of its CPU. The request id is 1–64 of [A-Za-z0-9._-] or a UUID
 * (request-id.ts), so it needs no escaping; the test compares with JSON.stringify of the objects.
 */
export function healthyBody(version: string, now: number, uptimeS: number, requestId: string): string {
  const time = isoTime(now);
  return `{"success":true,"errors":[],"data":{"status":"ok","service":"graph-stats","version":${JSON.stringify(version)},"time":"${time}","uptime_s":${uptimeS},"checks":{"database":"ok"}},"meta":{"generated_at":"${time}","request_id":"${requestId}"}}`;
}
