/**
 * GET /openapi.json and GET /docs — public, unmetered. Both bodies are built once per process
 * (with their gzip form) from the zod schemas; nothing is read from disk, so the single binary
 * serves them as it is. The page needs no asset of its own (docs-page.ts), hence no build define.
 */
import type { AppDeps, RequestState } from "../context.ts";
import { acceptsGzip } from "../envelope.ts";
import { documentJson, EXAMPLE_BASE_URL } from "../openapi/document.ts";
import { DOCS_STYLE_HASH, renderDocsPage } from "../openapi/docs-page.ts";

interface Prepared {
  plain: Buffer;
  gzip: Buffer;
}

let openapi: Prepared | null = null;
/** Per app: the page names its server's public URL. */
const docsOf = new WeakMap<AppDeps, Prepared>();

const prepare = (text: string): Prepared => {
  const plain = Buffer.from(text);
  return { plain, gzip: Buffer.from(Bun.gzipSync(plain, { level: 9 })) };
};

function respond(request: Request, state: RequestState, body: Prepared, extra: Record<string, string>): Response {
  const gzip = acceptsGzip(request.headers.get("accept-encoding"));
  const payload = gzip ? body.gzip : body.plain;
  const headers: Record<string, string> = { ...state.base, ...extra, "Cache-Control": "public, max-age=300", Vary: "Accept-Encoding" };
  if (gzip) headers["Content-Encoding"] = "gzip";
  if (request.method === "HEAD") {
    headers["Content-Length"] = String(payload.byteLength);
    return new Response(null, { headers });
  }
  return new Response(payload, { headers });
}

export function handleOpenApi(deps: AppDeps, request: Request, state: RequestState): Response {
  openapi ??= prepare(documentJson(deps.version));
  return respond(request, state, openapi, { "Content-Type": "application/json; charset=utf-8" });
}

export function handleDocs(deps: AppDeps, request: Request, state: RequestState): Response {
  // The examples name the address this server is reached at (--public-url), not the default one.
  let docs = docsOf.get(deps);
  if (!docs) {
    const base = JSON.stringify(deps.publicUrl?.() ?? EXAMPLE_BASE_URL).slice(1, -1);
    docs = prepare(renderDocsPage(JSON.parse(documentJson(deps.version).replaceAll(EXAMPLE_BASE_URL, base))));
    docsOf.set(deps, docs);
  }
  return respond(request, state, docs, {
    "Content-Type": "text/html; charset=utf-8",
    // No script, no frames, no external resource: only the page's own inline stylesheet, by hash.
    "Content-Security-Policy": `default-src 'none'; style-src 'sha256-${DOCS_STYLE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  });
}
