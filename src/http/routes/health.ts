/** GET /health — public, unmetered; 503 with the failing check when the database does not answer. */
import type { AppDeps, RequestState } from "../context.ts";
import { baseMeta, errorBody, jsonResponse, successBody } from "../envelope.ts";

export function handleHealth(deps: AppDeps, request: Request, state: RequestState): Response {
  const now = deps.clock.now();
  let database = "ok";
  try {
    if (!deps.checkDatabase()) database = "unavailable";
  } catch {
    database = "unavailable";
  }
  const headers = { ...state.base, "Cache-Control": "no-store" };
  const head = request.method === "HEAD";
  if (database !== "ok" || deps.isShuttingDown()) {
    const why = database !== "ok" ? "database check failed: the database does not answer" : "shutting down";
    return jsonResponse(
      errorBody([{ code: "SERVICE_UNAVAILABLE", message: why }], baseMeta(now, state.requestId, { checks: { database } })),
      503,
      { ...headers, "Retry-After": "5" },
      null,
      head,
    );
  }
  const meta = baseMeta(now, state.requestId);
  const data = {
    status: "ok",
    service: "graph-stats",
    version: deps.version,
    time: meta.generated_at,
    uptime_s: Math.floor((now - deps.startedAt) / 1000),
    checks: { database },
  };
  return jsonResponse(successBody(data, meta), 200, headers, null, head);
}
