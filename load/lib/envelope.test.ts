import { describe, expect, test } from "bun:test";
import { checkEnvelope, errorCode, parseBody } from "./envelope.js";

const META = { generated_at: "2026-11-22T01:02:03.456Z", request_id: "r1" };
const ok = JSON.stringify({ success: true, errors: [], data: { stocks: [] }, meta: META });
const unauthorized = JSON.stringify({
  success: false,
  errors: [{ code: "UNAUTHORIZED", message: "missing bearer token" }],
  data: null,
  meta: META,
});

describe("checkEnvelope", () => {
  const cases: [string, unknown, Parameters<typeof checkEnvelope>[1], string[]][] = [
    ["a success with stocks passes", ok, { success: true, stocks: true }, []],
    [
      "errors may be absent on success (another implementation may leave it out)",
      { success: true, data: { stocks: [] }, meta: META },
      { success: true, stocks: true },
      [],
    ],
    ["a matching error passes", unauthorized, { success: false, code: "UNAUTHORIZED", message: "missing bearer token" }, []],
    ["messages may be matched by pattern", unauthorized, { success: false, code: "UNAUTHORIZED", message: /bearer/ }, []],
    [
      "a wrong code is reported with both codes",
      unauthorized,
      { success: false, code: "RATE_LIMITED" },
      ["wrong-code: expected RATE_LIMITED, got UNAUTHORIZED"],
    ],
    [
      "a wrong message is reported",
      unauthorized,
      { success: false, message: "token expired — generate a new token" },
      ["wrong-message: expected 'token expired — generate a new token', got 'missing bearer token'"],
    ],
    [
      "success where an error was expected",
      ok,
      { success: false, code: "UNAUTHORIZED" },
      [
        "bad-envelope: success is true, expected false",
        "bad-envelope: data must be null on error",
        "bad-envelope: errors must hold at least one error object",
      ],
    ],
    [
      "stocks must be an array on the chart endpoints",
      { success: true, errors: [], data: { stocks: {} }, meta: META },
      { success: true, stocks: true },
      ["bad-envelope: data.stocks is not an array"],
    ],
    [
      "generated_at must be UTC ISO 8601",
      { success: true, errors: [], data: {}, meta: { generated_at: "2026-11-22 01:02:03" } },
      { success: true },
      ["bad-envelope: meta.generated_at is not an ISO 8601 UTC timestamp: '2026-11-22 01:02:03'"],
    ],
    [
      "errors need request_id in meta",
      { success: false, errors: [{ code: "X", message: "m" }], data: null, meta: { generated_at: META.generated_at } },
      { success: false },
      ["bad-envelope: meta.request_id is missing on an error"],
    ],
    [
      "an error object without a message",
      { success: false, errors: [{ code: "X" }], data: null, meta: META },
      { success: false },
      ["bad-envelope: every error needs a string code and a non-empty message"],
    ],
    ["an HTML error page is not JSON", "<html>502</html>", { success: false }, ["bad-json: body is not JSON: '<html>502</html>'"]],
    ["a JSON array is not an envelope", "[]", { success: true }, ["bad-envelope: body is not a JSON object"]],
    ["an empty body (k6 gives null) is not an envelope", null, { success: true }, ["bad-envelope: body is not a JSON object"]],
  ];
  for (const [name, body, expect_, want] of cases) test(name, () => expect(checkEnvelope(body, expect_)).toEqual(want));
});

describe("checkEnvelope in the core profile", () => {
  const error = (meta: Record<string, unknown>) => ({
    success: false,
    errors: [{ code: "MISSING_TOKEN", message: "m" }],
    data: null,
    meta,
  });
  test("an error needs no request_id, and UTC may be a zero offset", () => {
    expect(checkEnvelope(error({ generated_at: "2026-11-22T01:02:03Z" }), { success: false }, "core")).toEqual([]);
    expect(checkEnvelope(error({ generated_at: "2026-11-22T01:02:03+00:00" }), { success: false }, "core")).toEqual([]);
    expect(checkEnvelope(error({ generated_at: "2026-11-22T01:02:03+0000" }), { success: false }, "core")).toEqual([]);
    expect(checkEnvelope(error({ generated_at: "2026-11-22T01:02:03+00:00" }), { success: false })).toEqual([
      "bad-envelope: meta.generated_at is not an ISO 8601 UTC timestamp: '2026-11-22T01:02:03+00:00'",
      "bad-envelope: meta.request_id is missing on an error",
    ]);
  });
  test("still wants the envelope the interface fixes", () => {
    expect(checkEnvelope(error({ generated_at: "2026-11-22T01:02:03+02:00" }), { success: false }, "core")).toEqual([
      "bad-envelope: meta.generated_at is not an ISO 8601 UTC timestamp: '2026-11-22T01:02:03+02:00'",
    ]);
    expect(checkEnvelope({ success: "true", data: { stocks: [] }, meta: META }, { success: true, stocks: true }, "core")).toEqual([
      "bad-envelope: success is not a boolean",
    ]);
    expect(checkEnvelope({ ...error({ generated_at: META.generated_at }), data: {} }, { success: false }, "core")).toEqual([
      "bad-envelope: data must be null on error",
    ]);
  });
});

describe("errorCode / parseBody", () => {
  test("reads errors[0].code or null", () => {
    expect(errorCode(unauthorized)).toBe("UNAUTHORIZED");
    expect(errorCode(ok)).toBeNull();
    expect(errorCode("nope")).toBeNull();
  });
  test("parseBody passes parsed values through", () => {
    expect(parseBody({ a: 1 })).toEqual({ value: { a: 1 } });
  });
});
