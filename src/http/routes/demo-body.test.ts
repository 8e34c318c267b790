import { expect, test } from "bun:test";
import { baseMeta, jsonResponse, RawJson, successBody } from "../envelope.ts";
import { demoBody } from "./demo.ts";

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

const now = Date.parse("2026-11-22T10:00:00.123Z");

test("the demo body template is byte-identical to the envelope built from objects, for every request", () => {
  const payload = {
    dataJson: '{"nodes":[{"id":"A\\"B","meta":{"generated_at":"x"}}],"edges":[]}',
    extraMeta: { demo: true, params: { asof: "2024-06-28", periods: 1 }, diagnostics: { n_requested: 50, missing_symbols: [] } },
  };
  for (const [t, id] of [
    [now, "0b7c1f2e-8a8e-4a4f-9f3e-3f0b0d9b1a11"],
    [now + 1, "caller.id-1_x"],
  ] as const) {
    expect(text(demoBody(payload, t, id))).toBe(successBody(new RawJson(payload.dataJson), baseMeta(t, id, payload.extraMeta)));
    expect(JSON.parse(text(demoBody(payload, t, id))).meta.request_id).toBe(id);
  }
});

test("without extra meta the template still closes meta and the envelope", () => {
  const payload = { dataJson: "[]", extraMeta: {} };
  expect(text(demoBody(payload, now, "abc"))).toBe(successBody(new RawJson("[]"), baseMeta(now, "abc")));
});

test("non-ASCII data survives, and a longer id then a shorter one leaves no trace of the longer", () => {
  const payload = { dataJson: '{"name":"Bajaj Auto — ₹ é"}', extraMeta: { demo: true } };
  const long = "x".repeat(64);
  expect(text(demoBody(payload, now, long))).toBe(successBody(new RawJson(payload.dataJson), baseMeta(now, long, payload.extraMeta)));
  expect(text(demoBody(payload, now, "s"))).toBe(successBody(new RawJson(payload.dataJson), baseMeta(now, "s", payload.extraMeta)));
});

test("new Response() copies a byte body at once, so demoBody may rewrite its buffer for the next request", async () => {
  const payload = { dataJson: JSON.stringify({ pad: "x".repeat(2000) }), extraMeta: {} }; // over 1 KiB: gzipped
  const first = new Response(demoBody(payload, now, "first-request"));
  const gzipped = jsonResponse(demoBody(payload, now, "gzip-request"), 200, {}, "gzip");
  demoBody(payload, now + 1, "second-request");
  expect(JSON.parse(await first.text()).meta.request_id).toBe("first-request");
  const unzipped = text(Bun.gunzipSync(new Uint8Array(await gzipped.arrayBuffer())));
  expect(JSON.parse(unzipped).meta.request_id).toBe("gzip-request");
});
