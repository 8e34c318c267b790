/** GET /v1/demo/chart — public, unmetered; any Authorization header is ignored. */
import type { AppDeps, RequestState } from "../context.ts";
import { baseMeta, jsonResponse, RawJson, successBody } from "../envelope.ts";

export function handleDemo(deps: AppDeps, request: Request, state: RequestState): Response {
  const q = request.url.indexOf("?");
  const periods = q < 0 ? null : new URLSearchParams(request.url.slice(q + 1)).get("periods");
  const { dataJson, extraMeta } = deps.demo.payload(periods);
  const body = successBody(new RawJson(dataJson), baseMeta(deps.clock.now(), state.requestId, extraMeta));
  return jsonResponse(
    body,
    200,
    { ...state.base, "Cache-Control": "public, max-age=60" },
    request.headers.get("accept-encoding"),
    request.method === "HEAD",
  );
}
