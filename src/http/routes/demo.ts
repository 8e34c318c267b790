/** GET /v1/demo/chart — public, unmetered; any Authorization header is ignored. */
import type { AppDeps, RequestState } from "../context.ts";
import type { DemoBody } from "../demo-service.ts";
import { baseMeta, jsonResponse, RawJson, successBody } from "../envelope.ts";

/** Synchronous once the answer is in memory (every call after the first per periods value). */
export function handleDemo(deps: AppDeps, request: Request, state: RequestState): Response | Promise<Response> {
  const q = request.url.indexOf("?");
  const periods = q < 0 ? null : new URLSearchParams(request.url.slice(q + 1)).get("periods");
  const payload = deps.demo.payload(periods);
  return payload instanceof Promise ? payload.then((p) => respond(deps, request, state, p)) : respond(deps, request, state, payload);
}

function respond(deps: AppDeps, request: Request, state: RequestState, { dataJson, extraMeta }: DemoBody): Response {
  const body = successBody(new RawJson(dataJson), baseMeta(deps.clock.now(), state.requestId, extraMeta));
  return jsonResponse(
    body,
    200,
    { ...state.base, "Cache-Control": "public, max-age=60" },
    request.headers.get("accept-encoding"),
    request.method === "HEAD",
  );
}
