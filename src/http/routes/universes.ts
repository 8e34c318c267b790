/**
 * GET /v1/universes and GET /v1/universes/{name} — what data is stored (docs/api.md § GET /v1/universes and GET /v1/universes/{name}).
 * A bearer token is required and verified exactly as on the live endpoint (the same 401s and 403),
 * but nothing is metered: no quota is used and no rate-limit header is sent. Answers come from the
 * catalogue held in memory per data version (src/market/catalogue-cache.ts), with a weak ETag
 * naming that version, so a client's If-None-Match costs a version read and a 304.
 */
import { storeFailure } from "../../market/store-errors.ts";
import { isValidUniverseName } from "../../market/symbols.ts";
import type { CatalogueAnswer } from "../../market/catalogue-cache.ts";
import type { AppDeps, RequestState } from "../context.ts";
import { baseMeta, jsonResponse, RawJson, successBody } from "../envelope.ts";
import { HttpError } from "../http-error.ts";

/** Revalidate each time (the ETag makes that a 304); private: the answer is for token holders. */
const CACHE_CONTROL = "private, no-cache";

export function handleUniverseList(deps: AppDeps, request: Request, state: RequestState): Promise<Response> {
  return catalogueAnswer(deps, request, state, () => deps.universes.list());
}

export function handleUniverse(deps: AppDeps, request: Request, state: RequestState): Promise<Response> {
  const name = state.params.name ?? "";
  return catalogueAnswer(deps, request, state, async () => {
    const found = isValidUniverseName(name) ? await deps.universes.detail(name) : null;
    if (found) return found;
    const known = await deps.universes.names();
    throw new HttpError(
      404,
      "NOT_FOUND",
      `unknown universe '${name.slice(0, 64)}'; known universes: ${known.length ? known.join(", ") : "none (import one first)"}`,
    );
  });
}

/** database check → authenticate → no parameters → the catalogue's answer, or 304 when the client holds it. */
async function catalogueAnswer(
  deps: AppDeps,
  request: Request,
  state: RequestState,
  read: () => Promise<CatalogueAnswer>,
): Promise<Response> {
  if (!(await deps.checkDatabase())) {
    state.unavailable = "database_unreachable";
    throw new HttpError(503, "SERVICE_UNAVAILABLE", "the database is unavailable; retry shortly", { "Retry-After": "5" });
  }
  const user = await deps.auth(request.headers.get("authorization"));
  state.userId = user.id;
  const q = request.url.indexOf("?");
  if (q >= 0 && q < request.url.length - 1) {
    const names = [...new Set(new URLSearchParams(request.url.slice(q + 1)).keys())].map((k) => k.slice(0, 64));
    throw new HttpError(400, "BAD_REQUEST", `${state.path} takes no parameters; received: ${names.join(", ").slice(0, 512)}`);
  }
  let answer: CatalogueAnswer;
  try {
    answer = await read();
  } catch (err) {
    throw storeFailure(err);
  }
  const etag = `W/"dv${answer.version}"`;
  const headers: Record<string, string> = { ...state.base, ETag: etag, "Cache-Control": CACHE_CONTROL };
  if (matches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  const body = successBody(new RawJson(answer.json), baseMeta(deps.clock.now(), state.requestId));
  return jsonResponse(body, 200, headers, request.headers.get("accept-encoding"), request.method === "HEAD");
}

/** RFC 9110 § 13.1.2: If-None-Match compares weakly; `*` matches any current representation. */
export function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = etag.replace(/^W\//, "");
  return ifNoneMatch.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag.replace(/^W\//, "") === opaque;
  });
}
