/**
 * The live answer's bytes: the envelope's head and `data`, encoded once per cached result, with
 * `meta` (the only part that changes per request) written after it. Encoding a 14.5 KB answer
 * from a string on every request was the largest cost of a cached live answer after the meter
 * (bench/live-cpu.ts); new Response() copies a byte view at once (demo-body.test.ts), so the
 * buffer is rewritten by the next request for the same result.
 */
interface Template {
  buf: Buffer;
  headLength: number;
}

/** By cached result (its object identity): dropped with it when the result cache evicts it. */
const templates = new WeakMap<object, Template>();

/**
 * `{"success":true,"errors":[],"data":<dataJson>,"meta":<metaJson>}` as bytes, identical to
 * successBody(new RawJson(dataJson), meta). The view is valid until the next call for `result`.
 */
export function liveBody(result: object, dataJson: string, metaJson: string): Uint8Array {
  let t = templates.get(result);
  if (!t) {
    const head = Buffer.from(`{"success":true,"errors":[],"data":${dataJson},"meta":`);
    t = { buf: head, headLength: head.length };
    templates.set(result, t);
  }
  const need = t.headLength + Buffer.byteLength(metaJson) + 1;
  if (t.buf.length < need) {
    const grown = Buffer.allocUnsafe(need + 256);
    t.buf.copy(grown, 0, 0, t.headLength);
    t.buf = grown;
  }
  const end = t.headLength + t.buf.write(metaJson, t.headLength, "utf8");
  t.buf[end] = 0x7d; // the envelope's closing brace
  return t.buf.subarray(0, end + 1);
}

/** Stand-ins for the per-request values in a meta template: strings no parameter or diagnostic holds. */
const AT = "\u0000at\u0000";
const ID = "\u0000id\u0000";
const MS = "\u0000ms\u0000";
const CACHED = "\u0000cached\u0000";
const MARKS = [AT, ID, MS, CACHED].map((m) => JSON.stringify(m));

/** Meta text split around its per-request values, by cached result and then by the query's parameters. */
const metaTemplates = new WeakMap<object, WeakMap<object, string[]>>();

/**
 * JSON.stringify(baseMeta(now, requestId, { params, diagnostics: { ...diagnostics, compute_ms, cached } })),
 * byte for byte: the params and diagnostics of one result and query are serialised once, and the
 * time, id, compute time and cache flag written between them (JSON.stringify of the whole was ~4 µs a
 * cached live request). `params` and `diagnostics` must be the same for the same (result, key).
 */
export function liveMeta(
  result: object,
  key: object,
  build: () => { params: unknown; diagnostics: object },
  at: string,
  requestId: string,
  computeMs: number,
  cached: boolean,
): string {
  let byKey = metaTemplates.get(result);
  if (!byKey) metaTemplates.set(result, (byKey = new WeakMap()));
  let parts = byKey.get(key);
  if (!parts) {
    const { params, diagnostics } = build();
    const text = JSON.stringify({
      generated_at: AT,
      request_id: ID,
      params,
      diagnostics: { ...diagnostics, compute_ms: MS, cached: CACHED },
    });
    parts = [];
    let from = 0;
    for (const mark of MARKS) {
      const i = text.indexOf(mark, from);
      parts.push(text.slice(from, i));
      from = i + mark.length;
    }
    parts.push(text.slice(from));
    byKey.set(key, parts);
  }
  return `${parts[0]}${JSON.stringify(at)}${parts[1]}${JSON.stringify(requestId)}${parts[2]}${JSON.stringify(computeMs)}${parts[3]}${cached}${parts[4]}`;
}
