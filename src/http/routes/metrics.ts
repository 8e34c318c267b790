/** GET /metrics — Prometheus text format; unmetered, only for the addresses `--metrics-allow` lists. */
import type { AppDeps, RequestState } from "../context.ts";
import { HttpError } from "../http-error.ts";

export async function handleMetrics(deps: AppDeps, _request: Request, state: RequestState, clientIp: string | null): Promise<Response> {
  if (!deps.metrics) throw new HttpError(404, "NOT_FOUND", "metrics are not enabled on this server");
  if (!(deps.metricsAllowed ?? (() => false))(clientIp)) {
    throw new HttpError(
      403,
      "FORBIDDEN",
      `metrics are readable only from the addresses in --metrics-allow (GRAPH_STATS_METRICS_ALLOW); ${clientIp ?? "this client"} is not one of them`,
    );
  }
  return new Response(await deps.metrics.render(), {
    headers: { ...state.base, "Content-Type": deps.metrics.contentType, "Cache-Control": "no-store" },
  });
}
