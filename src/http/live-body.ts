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
