/** GET /metrics — Prometheus text format; unmetered, only for the addresses `--metrics-allow` lists. */
import type { AppDeps, RequestState } from "../context.ts";
import { peerAddress } from "../client-address.ts";
import { HttpError } from "../http-error.ts";

export async function handleMetrics(deps: AppDeps, request: Request, state: RequestState): Promise<Response> {
  if (!deps.metrics) throw new HttpError(404, "NOT_FOUND", "metrics are not enabled on this server");
  // One exact path: the router also matched /metrics/, //metrics and dot segments, which got past a
  // proxy's `location = /metrics` rule (docs/deploy.md).
  if (pathOf(request.url) !== "/metrics")
    throw new HttpError(404, "NOT_FOUND", `no route for GET ${pathOf(request.url)}; the metrics are at /metrics`);
  const host = hostnameOf(request.headers.get("host"));
  if (!hostAllowed(host, deps.publicUrl ? new URL(deps.publicUrl()).hostname.toLowerCase() : null)) {
    throw new HttpError(
      403,
      "FORBIDDEN",
      "metrics are served only to requests addressed to an IP address, localhost or the public URL's host (--public-url), " +
        "so a web page cannot read them through DNS rebinding",
    );
  }
  const clientIp = (deps.clientAddress ?? peerAddress)(request, state.server);
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

/** The request's path as sent (after the authority, before the query). */
function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const q = url.indexOf("?", start);
  return q < 0 ? url.slice(start) : url.slice(start, q);
}

/** The Host header's name without its port, lower case ("" when absent). */
function hostnameOf(host: string | null): string {
  if (!host) return "";
  const h = host.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  const colon = h.lastIndexOf(":");
  return colon < 0 ? h : h.slice(0, colon);
}

/**
 * DNS rebinding needs a name: an IP literal, localhost or the service's own public host cannot be
 * an attacker's domain pointed at this machine.
 */
function hostAllowed(host: string, publicHost: string | null): boolean {
  if (host === "localhost" || host.endsWith(".localhost") || host === publicHost) return true;
  if (host.startsWith("[")) return true;
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host);
}
