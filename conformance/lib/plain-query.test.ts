/**
 * The plain query (--query, or built from the document's required parameters, or none) and the
 * reasons the kit gives when a plain request is refused for its parameters: unit tests, then the
 * kit against a small fake server that requires `interval` on the live endpoint and the demo,
 * served with and without an OpenAPI document.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parseDocument } from "../fuzz/document.ts";
import { parseArgs } from "./args.ts";
import { NO_QUERY, optionQuery, queryFromDocument, queryRefusal, withParam } from "./plain-query.ts";
import { runKit } from "./runner.ts";
import type { Exchange, RunReport } from "./types.ts";

/** An OpenAPI document whose live endpoint and demo require `interval`; `extra` adds required parameters to the live one. */
function documentRequiring(interval: Record<string, unknown>, extra: Record<string, unknown>[] = []) {
  const params = [
    { name: "interval", in: "query", required: true, ...interval },
    { name: "lookback", in: "query", schema: { type: "integer", default: 60 } },
  ];
  const op = (id: string, more: Record<string, unknown>[] = []) => ({
    operationId: id,
    parameters: [...params, ...more],
    responses: { "200": { description: "ok" } },
  });
  return {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    paths: { "/v1/graph-stats/chart": { get: op("live", extra) }, "/v1/demo/chart": { get: op("demo") } },
  };
}

const loaded = (doc: unknown) => parseDocument(JSON.stringify(doc), "http://x/openapi.json");

describe("the plain query", () => {
  test("built from the document's required parameters: example, default, then the first enum value", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ example: "1h", schema: { type: "string", enum: ["1d", "1h"], default: "1d" } }, "interval=1h"],
      [{ schema: { type: "string", enum: ["1d", "1h"], default: "1h" } }, "interval=1h"],
      [{ schema: { type: "string", enum: ["1w", "1d"] } }, "interval=1w"],
      [{ schema: { type: "array", items: { type: "string" }, default: ["1d", "1 h"] } }, "interval=1d%2C1%20h"],
    ];
    for (const [interval, query] of cases) {
      const q = queryFromDocument(loaded(documentRequiring(interval)), "/v1/graph-stats/chart");
      expect(q).toEqual({ query, source: "document", from: "the required parameters of http://x/openapi.json", unfilled: [] });
    }
    // Optional parameters are left out; a required one with no value to offer is named.
    const unfilled = queryFromDocument(
      loaded(
        documentRequiring({ schema: { type: "string", enum: ["1d"] } }, [
          { name: "universe", in: "query", required: true, schema: { type: "string" } },
        ]),
      ),
      "/v1/graph-stats/chart",
    );
    expect(unfilled).toMatchObject({ query: "interval=1d", unfilled: ["universe"] });
    // A path the document does not describe gets no query.
    expect(queryFromDocument(loaded(documentRequiring({ schema: { enum: ["1d"] } })), "/elsewhere")).toMatchObject({
      query: "",
      source: "none",
    });
  });

  test("the rolling query replaces any periods of the plain one", () => {
    expect(withParam("", "periods", "3")).toBe("periods=3");
    expect(withParam("interval=1d", "periods", "3")).toBe("interval=1d&periods=3");
    expect(withParam("periods=1&interval=1d&periods=2", "periods", "3")).toBe("interval=1d&periods=3");
    expect(optionQuery("?interval=1d").query).toBe("interval=1d");
  });

  test("--query is read (a leading ? dropped, empty allowed) and checked", () => {
    const run = (...extra: string[]) => {
      const r = parseArgs(["--base-url", "http://h", ...extra], {});
      if (r.kind !== "run") throw new Error("expected run");
      return r.options.query;
    };
    expect(run()).toBeUndefined();
    expect(run("--query", "?interval=1d&lookback=30")).toBe("interval=1d&lookback=30");
    expect(run("--query=")).toBe("");
    expect(() => run("--query", "interval=1 d")).toThrow(/--query must be a URL query/);
    expect(() => run("--query", "a=1#x")).toThrow(/--query must be a URL query/);
  });

  test("a 4xx other than 401 and 429 is the query's matter: a skip without a vouched query, a failure with one", () => {
    const ex = (status: number, path = "/v1/graph-stats/chart") =>
      ({
        path,
        status,
        json: { success: false, errors: [{ code: "INVALID_PARAMETER", message: "parameter 'interval' is required" }] },
      }) as unknown as Exchange;
    for (const status of [200, 401, 429, 500]) expect(queryRefusal(ex(status), "the live endpoint", NO_QUERY)).toBeUndefined();
    expect(queryRefusal(ex(422), "the live endpoint", NO_QUERY)).toEqual({
      reason:
        "the live endpoint answered 422 INVALID_PARAMETER to `GET /v1/graph-stats/chart` (\"parameter 'interval' is required\"): pass --query with the parameters it requires",
      vouched: false,
    });
    expect(queryRefusal(ex(400, "/v1/demo/chart?x=1"), "the demo", optionQuery("x=1"))).toMatchObject({
      reason: expect.stringMatching(
        /^the demo answered 400 INVALID_PARAMETER to `GET \/v1\/demo\/chart\?x=1` .*, the query given with --query: it must be answered 200$/,
      ),
      vouched: true,
    });
    const doc = loaded(documentRequiring({ schema: { enum: ["1d"] } }, [{ name: "u", in: "query", required: true, schema: {} }]));
    expect(queryRefusal(ex(422), "the live endpoint", queryFromDocument(doc, "/v1/graph-stats/chart"))).toMatchObject({
      reason: expect.stringMatching(
        /pass --query with the parameters it requires; the document requires u but gives no example, default or enum$/,
      ),
      vouched: false,
    });
    const filled = queryFromDocument(loaded(documentRequiring({ schema: { enum: ["1d"] } })), "/v1/graph-stats/chart");
    expect(queryRefusal(ex(422), "the live endpoint", filled)).toMatchObject({
      reason: expect.stringMatching(
        /, a query built from the required parameters of http:\/\/x\/openapi.json: it must be answered 200 \(or pass --query\)$/,
      ),
      vouched: true,
    });
  });
});

describe("the kit against a fake server that requires interval", () => {
  let server: ReturnType<typeof Bun.serve>;
  let base: string;
  /** Whether the fake serves /openapi.json (with `interval` required, enum 1w, 1d). */
  let servesDocument = false;

  const META = () => ({ generated_at: new Date().toISOString() });
  beforeAll(() => {
    server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        const url = new URL(req.url);
        if (url.pathname === "/openapi.json")
          return servesDocument
            ? Response.json(documentRequiring({ schema: { type: "string", enum: ["1w", "1d"] } }))
            : new Response("", { status: 404 });
        if (url.pathname === "/health") return Response.json({ success: true, data: {}, meta: META() });
        const chart = url.pathname === "/v1/graph-stats/chart";
        if (!chart && url.pathname !== "/v1/demo/chart") return Response.json({}, { status: 404 });
        if (chart && !/^Bearer \S+\.\S+\.\S+$/.test(req.headers.get("authorization") ?? ""))
          return Response.json(
            { success: false, errors: [{ code: "UNAUTHORIZED", message: "no" }], data: null, meta: META() },
            { status: 401 },
          );
        if (!url.searchParams.get("interval"))
          return Response.json(
            { success: false, errors: [{ code: "INVALID_PARAMETER", message: "interval is required" }], data: null, meta: META() },
            { status: 422 },
          );
        return Response.json({ success: true, data: { stocks: [] }, meta: META() });
      },
    });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(() => server.stop(true));

  async function run(...extra: string[]): Promise<{ report: RunReport; outcome: Record<string, string> }> {
    const only = ["demo.public-unmetered", "demo.ignores-authorization", "live.ok", "live.rolling", "limits.burst"];
    const parsed = parseArgs(["--base-url", base, "--secret", "s", "--only", only.join(","), ...extra], {});
    if (parsed.kind !== "run") throw new Error("expected run");
    const report = await runKit(parsed.options);
    const outcome = Object.fromEntries(report.results.map((r) => [r.id, `${r.outcome}: ${r.reason ?? ""}`]));
    return { report, outcome };
  }

  test("no document and no --query: skipped, saying what was answered to which request and to pass --query", async () => {
    servesDocument = false;
    const { outcome } = await run();
    expect(outcome["live.ok"]).toBe(
      'skipped: the live endpoint answered 422 INVALID_PARAMETER to `GET /v1/graph-stats/chart` ("interval is required"): pass --query with the parameters it requires',
    );
    expect(outcome["live.rolling"]).toContain("to `GET /v1/graph-stats/chart?periods=3`");
    for (const id of ["demo.public-unmetered", "demo.ignores-authorization"])
      expect(outcome[id]).toBe(
        'skipped: the demo answered 422 INVALID_PARAMETER to `GET /v1/demo/chart` ("interval is required"): pass --query with the parameters it requires',
      );
    expect(outcome["limits.burst"]).toStartWith("skipped: the live endpoint answered 422 INVALID_PARAMETER to `GET /v1/graph-stats/chart`");
  });

  test("the document's required interval (its first enum value) is sent, and periods=3 added for the rolling request", async () => {
    servesDocument = true;
    const { report, outcome } = await run();
    for (const id of ["demo.public-unmetered", "demo.ignores-authorization", "live.ok", "live.rolling"])
      expect(outcome[id]).toBe("passed: ");
    // The fake admits every call: with its query accepted, the burst is judged on its count.
    expect(report.results.find((r) => r.id === "limits.burst")?.reason).toStartWith("burst of 5: 5 admitted");
    expect(report.results.every((r) => r.evidence.every((e) => !e.path.startsWith("/v1/") || e.path.includes("interval=1w")))).toBe(true);
  });

  test("--query wins over the document; a refused --query fails, naming it", async () => {
    servesDocument = true;
    expect((await run("--query", "interval=1d")).outcome["live.rolling"]).toBe("passed: ");
    const { outcome } = await run("--query", "lookback=30");
    expect(outcome["live.ok"]).toStartWith(
      'failed: the live endpoint answered 422 INVALID_PARAMETER to `GET /v1/graph-stats/chart?lookback=30` ("interval is required"), the query given with --query',
    );
    expect(outcome["live.rolling"]).toContain("`GET /v1/graph-stats/chart?lookback=30&periods=3`");
  });
});
