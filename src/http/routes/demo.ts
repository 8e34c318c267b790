/** GET /v1/demo/chart — public, unmetered; any Authorization header is ignored. */
import { isoTime } from "../../clock.ts";
import type { AppDeps, RequestState } from "../context.ts";
import type { DemoBody } from "../demo-service.ts";
import { corsHeaders, PUBLIC } from "../cors.ts";
import { baseMeta, fromTemplate, jsonResponse, jsonTemplate, RawJson, successBody } from "../envelope.ts";

/** Synchronous once the answer is in memory (every call after the first per periods value). */
export function handleDemo(deps: AppDeps, request: Request, state: RequestState): Response | Promise<Response> {
  const q = request.url.indexOf("?");
  const periods = q < 0 ? null : new URLSearchParams(request.url.slice(q + 1)).get("periods");
  const payload = deps.demo.payload(periods);
  return payload instanceof Promise ? payload.then((p) => respond(deps, request, state, p)) : respond(deps, request, state, payload);
}

/**
 * The answer's bytes, with room after the head for the two members that change per request
 * (generated_at, request_id) and the tail; rewritten in place by each request.
 */
interface Template {
  buf: Buffer;
  headLength: number;
  tail: Uint8Array;
}
const templates = new WeakMap<DemoBody, Template>();

/**
 * The envelope as a template, made once per demo answer, byte-identical to
 * successBody(new RawJson(dataJson), baseMeta(now, requestId, extraMeta)) (demo-body.test.ts).
 * Bytes rewritten in one buffer rather than a new string per request: Bun sends a 14.7 KB string
 * it has not seen before for ~4 µs more CPU than one it has, and copies a byte view for ~0.7 µs
 * (docs/performance.md § HTTP); new Response() copies the view at once (demo-body.test.ts checks that), so
 * the next request may overwrite it. The request id is ASCII (request-id.ts), as is the time.
 * The view returned is valid until the next call for the same payload.
 */
export function demoBody(payload: DemoBody, now: number, requestId: string): Uint8Array {
  let t = templates.get(payload);
  if (!t) {
    const extra = JSON.stringify(payload.extraMeta).slice(1);
    const whole = successBody(new RawJson(payload.dataJson), baseMeta(0, "\u0000"));
    const at = '"meta":{"generated_at":"';
    const head = Buffer.from(whole.slice(0, whole.lastIndexOf(at) + at.length));
    const tail = Buffer.from(extra === "}" ? "}}" : `,${extra}}`);
    // 128 bytes hold the time (24), '","request_id":"' (16), the id (at most 64: request-id.ts) and its quote.
    const buf = Buffer.alloc(head.length + 128 + tail.length);
    buf.set(head, 0);
    t = { buf, headLength: head.length, tail };
    templates.set(payload, t);
  }
  const end = t.headLength + t.buf.write(`${isoTime(now)}","request_id":"${requestId}"`, t.headLength, "latin1");
  t.buf.set(t.tail, end);
  return t.buf.subarray(0, end + t.tail.length);
}

/** The answer's headers but X-Request-Id (and Content-Encoding): the route is public (app.ts). */
const HEADERS = jsonTemplate({ ...corsHeaders(PUBLIC, null), "Cache-Control": "public, max-age=60" });

function respond(deps: AppDeps, request: Request, state: RequestState, payload: DemoBody): Response {
  const body = demoBody(payload, deps.clock.now(), state.requestId);
  return jsonResponse(body, 200, fromTemplate(HEADERS, state.requestId), request.headers.get("accept-encoding"), request.method === "HEAD");
}
