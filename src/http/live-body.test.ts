import { expect, test } from "bun:test";
import { baseMeta, jsonResponse, RawJson, successBody } from "./envelope.ts";
import { liveBody, liveMeta } from "./live-body.ts";
import { isoTime } from "../clock.ts";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const now = Date.parse("2026-11-27T10:00:00.123Z");

test("the live body is byte-identical to the envelope built from strings, request after request", () => {
  const result = {};
  const data = '{"stocks":[{"symbol":"A\\"B","name":"Bajaj Auto — ₹ é"}],"edges":[]}';
  for (const [id, extra] of [
    ["0b7c1f2e-8a8e-4a4f-9f3e-3f0b0d9b1a11", { params: { lookback: 60 }, diagnostics: { cached: false, compute_ms: 12.5 } }],
    ["caller.id-1_x", { params: { lookback: 60, note: "é".repeat(300) }, diagnostics: { cached: true, compute_ms: 0.002 } }],
    ["s", {}],
  ] as const) {
    const meta = baseMeta(now, id, extra);
    expect(text(liveBody(result, data, JSON.stringify(meta)))).toBe(successBody(new RawJson(data), meta));
  }
});

test("new Response() keeps its own copy: the next request's meta does not reach the first answer", async () => {
  const result = {};
  const data = JSON.stringify({ pad: "x".repeat(2000) });
  const first = new Response(liveBody(result, data, JSON.stringify(baseMeta(now, "first"))));
  const gzipped = jsonResponse(liveBody(result, data, JSON.stringify(baseMeta(now, "gzip"))), 200, {}, "gzip");
  liveBody(result, data, JSON.stringify(baseMeta(now, "a-much-longer-second-request-id".repeat(3))));
  expect(JSON.parse(await first.text()).meta.request_id).toBe("first");
  expect(JSON.parse(text(Bun.gunzipSync(new Uint8Array(await gzipped.arrayBuffer())))).meta.request_id).toBe("gzip");
});

test("the live meta from its template is byte-identical to stringifying it whole, request after request", () => {
  const result = {};
  const echo = { lookback: 60, asof: null, note: 'a "quoted" é\u0001 value' };
  const diagnostics = { n_requested: 50, compute_ms: 999, missing_symbols: ["X\\Y"], cached: "placeholder", last_asof: "2025-09-30" };
  const params = { ...echo, asof: "2025-09-30" };
  for (const [at, id, ms, cached] of [
    [now, "0b7c1f2e-8a8e-4a4f-9f3e-3f0b0d9b1a11", 12.5, false],
    [now + 1, 'id "with" \\ quotes', 0.002, true],
    [now + 86_400_000, "s", 0, true],
  ] as const) {
    const whole = JSON.stringify(baseMeta(at, id, { params, diagnostics: { ...diagnostics, compute_ms: ms, cached } }));
    expect(liveMeta(result, echo, () => ({ params, diagnostics }), isoTime(at), id, ms, cached)).toBe(whole);
  }
  // Another query of the same result has a template of its own.
  const other = { lookback: 20 };
  expect(liveMeta(result, other, () => ({ params: other, diagnostics: {} }), isoTime(now), "x", 1, true)).toBe(
    JSON.stringify(baseMeta(now, "x", { params: other, diagnostics: { compute_ms: 1, cached: true } })),
  );
});
