/**
 * The response envelope of docs/api.md § The envelope, serialised once and
 * gzip-compressed when the client accepts it and the body is over 1 KiB.
 */
import { gzip } from "node:zlib";
import { isoTime } from "../clock.ts";
import type { ErrorObject } from "./http-error.ts";

const GZIP_MIN_BYTES = 1024;
const JSON_TYPE = "application/json; charset=utf-8";

export interface Meta {
  generated_at: string;
  request_id: string;
  [key: string]: unknown;
}

/** Builds `meta` with the mandatory members first. */
export function baseMeta(now: number, requestId: string, extra: Record<string, unknown> = {}): Meta {
  return { generated_at: isoTime(now), request_id: requestId, ...extra };
}

/** Already-serialised JSON, so cached results and the demo are not stringified per request. */
export class RawJson {
  constructor(readonly json: string) {}
}

/** Serialises a success envelope. */
export function successBody(data: unknown, meta: Meta): string {
  const dataJson = data instanceof RawJson ? data.json : JSON.stringify(data);
  return `{"success":true,"errors":[],"data":${dataJson},"meta":${JSON.stringify(meta)}}`;
}

export function errorBody(errors: ErrorObject[], meta: Meta): string {
  return JSON.stringify({ success: false, errors, data: null, meta });
}

/**
 * A JSON response; compressed with gzip when worthwhile and accepted (`Vary: Accept-Encoding`
 * always). `headers` must be a fresh object owned by the caller: it is completed in place, since
 * copying header objects several times per request showed up in the /health benchmark. Or a
 * Headers from fromTemplate(), already complete. A byte body is copied by new Response() (or
 * gzipped) before this returns, so the caller may reuse its buffer.
 */
export function jsonResponse(
  body: string | Uint8Array,
  status: number,
  headers: Record<string, string> | Headers,
  acceptEncoding: string | null,
  head = false,
  contentType = JSON_TYPE,
): Response {
  const gzipped = body.length > GZIP_MIN_BYTES && acceptsGzip(acceptEncoding);
  // Level 1: every body differs (meta), so it is compressed per request; on a 16 KB chart
  // level 1 took 80 µs against 245 µs at the default level, for 6.8 KB instead of 4.3 KB.
  const payload = gzipped
    ? Bun.gzipSync(typeof body === "string" ? Buffer.from(body) : (body as Uint8Array<ArrayBuffer>), { level: 1 })
    : body;
  return finish(payload, gzipped, status, headers, head, contentType);
}

/**
 * Above this a body is gzipped on the thread pool (node:zlib's async gzip), not on the event loop:
 * a 50 MB body took 134 ms of loop time with Bun.gzipSync and none with zlib.gzip.
 */
export const OFF_LOOP_GZIP_BYTES = 64 * 1024;

/** jsonResponse for bodies that may be large (chart answers, exports): a large one is compressed off the event loop. */
export async function largeResponse(
  body: string | Uint8Array,
  status: number,
  headers: Record<string, string>,
  acceptEncoding: string | null,
  head = false,
  contentType = JSON_TYPE,
): Promise<Response> {
  if (body.length <= OFF_LOOP_GZIP_BYTES || !acceptsGzip(acceptEncoding)) {
    return jsonResponse(body, status, headers, acceptEncoding, head, contentType);
  }
  const gz = await new Promise<Buffer>((resolve, reject) => gzip(body, { level: 1 }, (err, out) => (err ? reject(err) : resolve(out))));
  return finish(gz, true, status, headers, head, contentType);
}

/** Completes the headers (unless a finished Headers template) and makes the response, or its HEAD form. */
function finish(
  payload: string | Uint8Array,
  gzipped: boolean,
  status: number,
  h: Record<string, string> | Headers,
  head: boolean,
  contentType: string,
): Response {
  if (!(h instanceof Headers)) {
    h["Content-Type"] = contentType;
    h.Vary = h.Vary ? `${h.Vary}, Accept-Encoding` : "Accept-Encoding";
  }
  if (gzipped) put(h, "Content-Encoding", "gzip");
  if (head) {
    put(h, "Content-Length", String(typeof payload === "string" ? Buffer.byteLength(payload) : payload.byteLength));
    return new Response(null, { status, headers: h });
  }
  return new Response(payload as string | Uint8Array<ArrayBuffer>, { status, headers: h });
}

function put(h: Record<string, string> | Headers, name: string, value: string): void {
  if (h instanceof Headers) h.set(name, value);
  else h[name] = value;
}

/**
 * The headers of a route's JSON answers that are the same on every request (CORS, Cache-Control,
 * Content-Type, Vary), made once. Bun turns a plain object of six headers into a Response's
 * headers in ~0.85 µs, and copies a Headers in ~0.1 µs (in-process; 5% of /health's CPU).
 */
export function jsonTemplate(fields: Record<string, string>): Headers {
  return new Headers({ ...fields, "Content-Type": JSON_TYPE, Vary: fields.Vary ? `${fields.Vary}, Accept-Encoding` : "Accept-Encoding" });
}

/** This request's own copy of a template, with its X-Request-Id, for jsonResponse. */
export function fromTemplate(template: Headers, requestId: string): Headers {
  const h = new Headers(template);
  h.set("X-Request-Id", requestId);
  return h;
}

/** True when Accept-Encoding lists gzip (or *) without q=0. */
export function acceptsGzip(value: string | null): boolean {
  if (!value) return false;
  for (const part of value.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (name !== "gzip" && name !== "*") continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (!q || Number(q.slice(2)) > 0) return true;
  }
  return false;
}
