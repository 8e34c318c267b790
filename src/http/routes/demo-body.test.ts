import { expect, test } from "bun:test";
import { baseMeta, RawJson, successBody } from "../envelope.ts";
import { demoBody } from "./demo.ts";

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
    expect(demoBody(payload, t, id)).toBe(successBody(new RawJson(payload.dataJson), baseMeta(t, id, payload.extraMeta)));
    expect(JSON.parse(demoBody(payload, t, id)).meta.request_id).toBe(id);
  }
});

test("without extra meta the template still closes meta and the envelope", () => {
  const payload = { dataJson: "[]", extraMeta: {} };
  expect(demoBody(payload, now, "abc")).toBe(successBody(new RawJson("[]"), baseMeta(now, "abc")));
});
