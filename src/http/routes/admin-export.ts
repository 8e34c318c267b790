/**
 * GET /v1/admin/usage/export?since=YYYY-MM-DD[&until=YYYY-MM-DD][&format=cloudevents|csv] — the
 * billing export (src/metering/usage-export.ts) for an admin's bearer token, streamed a page at a
 * time (the body pulls the next page only when the previous one was sent). Not metered; a
 * non-admin gets 403 whatever it asks.
 */
import { exportFormat, exportRange } from "../../metering/usage-export.ts";
import type { AppDeps, RequestState } from "../context.ts";
import { HttpError } from "../http-error.ts";

export const ADMIN_EXPORT_PATH = "/v1/admin/usage/export";

const TYPES = { cloudevents: "application/cloudevents+json; charset=utf-8", csv: "text/csv; charset=utf-8" } as const;

export async function handleAdminExport(deps: AppDeps, request: Request, state: RequestState): Promise<Response> {
  const user = await deps.auth(request.headers.get("authorization"));
  state.userId = user.id;
  if (!user.admin)
    throw new HttpError(403, "FORBIDDEN", `user '${user.id}' is not an admin; an operator runs 'graph-stats user admin USER --on'`);
  if (!deps.usageExport) throw new HttpError(404, "NOT_FOUND", "the billing export is not served here");
  const q = new URL(request.url).searchParams;
  const range = exportRange(q.get("since") ?? undefined, q.get("until") ?? undefined, deps.clock.now());
  const format = exportFormat(q.get("format") ?? undefined);
  const chunks = deps.usageExport.chunks(range, format);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, { status: 200, headers: { ...state.base, "Content-Type": TYPES[format], "Cache-Control": "no-store" } });
}
