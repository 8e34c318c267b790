import { describe, expect, test } from "bun:test";
import type { Exchange } from "../lib/types.ts";
import type { Expectation } from "./cases.ts";
import { parseDocument } from "./document.ts";
import { FIXTURE, fixtureDocument } from "./fixture.ts";
import { Judge } from "./validate.ts";

const loaded = fixtureDocument();
const judge = new Judge(loaded);
const chart = loaded.operations.find((o) => o.id === "getChart")!;
const health = loaded.operations.find((o) => o.id === "getHealth")!;
const NONE: Expectation = { violations: [], badCredentials: false };
const META = { generated_at: "2026-11-22T10:00:00.000Z" };

function exchange(status: number, body: unknown, headers: Record<string, string> = {}, path = "/v1/graph-stats/chart"): Exchange {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const type: Record<string, string> = typeof body === "string" ? {} : { "content-type": "application/json; charset=utf-8" };
  return {
    method: "GET",
    url: `http://h${path}`,
    path,
    requestHeaders: {},
    status,
    headers: new Headers({ ...type, ...headers }),
    body: text,
    json,
    sentAt: 0,
    receivedAt: 0,
  };
}

const ok = (data: unknown = { stocks: [], n: 3 }, headers: Record<string, string> = { "X-Count": "3" }) =>
  exchange(200, { success: true, errors: [], data, meta: META }, headers);
const err = (status: number, headers: Record<string, string> = {}) =>
  exchange(status, { success: false, errors: [{ code: "X", message: "x" }], data: null, meta: META }, headers);

describe("judging a response against the document", () => {
  test("a conforming 200 and a conforming 400 pass", () => {
    expect(judge.problems(chart, ok(), NONE)).toEqual([]);
    expect(judge.problems(chart, err(400), NONE)).toEqual([]);
  });

  test("an undocumented status is refused, naming the documented ones", () => {
    expect(judge.problems(chart, err(422), NONE)).toEqual([
      "status 422 is not documented for getChart (documented: 200, 400, 401, 429, 500)",
    ]);
  });

  test("a field of the wrong type is refused with its path", () => {
    expect(judge.problems(chart, ok({ stocks: [], n: "3" }), NONE)).toEqual(["body /data/n must be integer"]);
  });

  test("a missing required header, and a documented header with a bad value, are refused", () => {
    expect(judge.problems(chart, ok(undefined, {}), NONE)).toEqual(["documented header X-Count is missing (required on 200)"]);
    expect(judge.problems(chart, ok(undefined, { "X-Count": "-1" }), NONE)).toEqual(['header X-Count: "-1" must be >= 0']);
    expect(judge.problems(chart, ok(undefined, { "X-Count": "1", "X-Optional": "1.5" }), NONE)[0]).toContain("X-Optional");
  });

  test("a 5xx fails even when documented; a 2xx fails for forbidden values or without credentials", () => {
    expect(judge.problems(chart, err(500), NONE)).toEqual(["answered 500: a server error (no request, however odd, may cause one)"]);
    expect(judge.problems(chart, ok(), { violations: ["lookback=1001: must be <= 1000"], badCredentials: false })[0]).toBe(
      "answered 200 to values its schemas forbid: lookback=1001: must be <= 1000",
    );
    expect(judge.problems(chart, ok(), { violations: [], badCredentials: true })[0]).toContain("without valid credentials");
  });

  test("Content-Type: undeclared types and non-JSON bodies are refused; NDJSON lines meet their line schema", () => {
    const csv = exchange(200, "a,b\n1,2\n", { "content-type": "text/csv", "X-Count": "1" });
    expect(judge.problems(chart, csv, NONE)).toEqual([
      "Content-Type text/csv is not declared for 200 (declared: application/json, application/x-ndjson)",
    ]);
    const broken = exchange(200, "{not json", { "content-type": "application/json", "X-Count": "1" });
    expect(judge.problems(chart, broken, NONE)[0]).toContain("not JSON");
    const nd = (body: string) => exchange(200, body, { "content-type": "application/x-ndjson; charset=utf-8", "X-Count": "1" });
    expect(judge.problems(chart, nd('{"v":1}\n{"v":null}\n'), NONE)).toEqual([]);
    expect(judge.problems(chart, nd('{"v":1}\n{"v":"x"}\n'), NONE)[0]).toContain("NDJSON line 2: /v must be number,null");
  });

  test("the envelope is judged on the interface's routes, and a 429 needs Retry-After", () => {
    const noMeta = exchange(400, {
      success: false,
      errors: [{ code: "X", message: "x" }],
      data: null,
      meta: { generated_at: "yesterday" },
    });
    expect(judge.problems(chart, noMeta, NONE)).toContain('envelope: meta.generated_at is "yesterday", expected an ISO 8601 UTC timestamp');
    expect(judge.problems(chart, err(429), NONE)).toEqual(["429 without Retry-After in whole seconds >= 1 (got null)"]);
    expect(judge.problems(chart, err(429, { "Retry-After": "30" }), NONE)).toEqual([]);
  });

  test("a text body is checked against its string schema", () => {
    const h = (body: string) => exchange(200, body, { "content-type": "text/plain" }, "/health");
    expect(judge.problems(health, h("ok"), NONE)).toEqual([]);
    expect(judge.problems(health, h("k"), NONE)).toEqual(["body (root) must NOT have fewer than 2 characters"]);
  });
});

describe("validators compiled once per document text in the process", () => {
  test("a second load of the same document judges alike; a changed document is judged by its own schemas", () => {
    // Each run loads the document afresh (new objects, the same text): the same answers, the same judgement.
    const again = fixtureDocument();
    const judgeAgain = new Judge(again);
    const chartAgain = again.operations.find((o) => o.id === "getChart")!;
    expect(judgeAgain.problems(chartAgain, ok({ stocks: [], n: "3" }), NONE)).toEqual(["body /data/n must be integer"]);
    expect(judgeAgain.problems(chartAgain, ok(undefined, { "X-Count": "-1" }), NONE)).toEqual(['header X-Count: "-1" must be >= 0']);
    // A document whose `n` is a string and whose X-Count may be negative: its own schemas, not the first one's.
    const changed = structuredClone(FIXTURE);
    changed.components.schemas.Ok.properties.data.properties.n = { type: "string" } as never;
    changed.components.headers["X-Count"].schema = { type: "integer" } as never;
    const other = parseDocument(JSON.stringify(changed), "changed.json");
    const otherJudge = new Judge(other);
    const otherChart = other.operations.find((o) => o.id === "getChart")!;
    expect(otherJudge.problems(otherChart, ok({ stocks: [], n: "3" }), NONE)).toEqual([]);
    expect(otherJudge.problems(otherChart, ok({ stocks: [], n: 3 }), NONE)).toEqual(["body /data/n must be string"]);
    expect(otherJudge.problems(otherChart, ok({ stocks: [], n: "3" }, { "X-Count": "-1" }), NONE)).toEqual([]);
    // And the first document still judges by its own.
    expect(judge.problems(chart, ok({ stocks: [], n: "3" }), NONE)).toEqual(["body /data/n must be integer"]);
  });
});
