/**
 * The OpenAPI document against the real server: what /openapi.json serves is the committed
 * docs/openapi.json, and real answers — 200 snapshot, rolling and tidy rows, 400, 401, 404, 405,
 * 429, the demo and /health — match the document's schemas and declared headers (ajv, JSON
 * Schema 2020-12, the dialect of OpenAPI 3.1).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import Ajv2020 from "ajv/dist/2020.js";
import { readFileSync } from "node:fs";
import { startHarness, type Harness } from "../../../test/support/http/harness.ts";
import { COMMITTED_PATH } from "./write.ts";

let h: Harness;
let doc: any;
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addFormat("date", /^\d{4}-\d{2}-\d{2}$/);
ajv.addFormat("date-time", /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);

beforeAll(async () => {
  h = await startHarness({ ratePerMinute: "1", ratePerDay: "100" });
  doc = await (await fetch(`${h.base}/openapi.json`)).json();
  ajv.addSchema(doc, "openapi.json");
});
afterAll(() => h.stop());

function schemaValidator(ref: string) {
  const validate = ajv.getSchema(`openapi.json${ref.slice(ref.indexOf("#"))}`);
  if (!validate) throw new Error(`no schema at ${ref}`);
  return validate;
}

function check(value: unknown, ref: string): void {
  const validate = schemaValidator(ref);
  const ok = validate(value);
  expect(ok ? [] : validate.errors!.map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`)).toEqual([]);
}

/**
 * Asserts that a real response is one the document declares for `path`: its status, its content
 * type and body schema, and every declared header that is required, or present, matches.
 */
async function conforms(res: Response, path: string): Promise<any> {
  const declared = doc.paths[path].get.responses[String(res.status)];
  expect(declared, `status ${res.status} of ${path} is not in the document`).toBeDefined();
  for (const [name, h] of Object.entries(declared.headers ?? {}) as [string, any][]) {
    const spec = h.$ref ? doc.components.headers[h.$ref.split("/").pop()] : h;
    const value = res.headers.get(name);
    if (spec.required) expect(value, `${path} ${res.status}: header ${name}`).not.toBeNull();
    if (value !== null) expect(ajv.validate(spec.schema, value), `${name}: ${value}`).toBe(true);
  }
  const type = (res.headers.get("content-type") ?? "").split(";")[0];
  const content = declared.content[type];
  expect(content, `${path} ${res.status}: ${type} is not declared`).toBeDefined();
  const text = await res.text();
  if (type === "application/json") {
    const body = JSON.parse(text);
    check(body, content.schema.$ref ?? "#/components/schemas/none");
    return body;
  }
  if (type === "application/x-ndjson") {
    const lines = text.trimEnd().split("\n");
    for (const line of lines) check(JSON.parse(line), content["x-line-schema"].$ref);
    return lines;
  }
  return text;
}

const LIVE = "/v1/graph-stats/chart";

describe("the document", () => {
  test("GET /openapi.json is docs/openapi.json, byte for byte (regenerate with npm run openapi)", async () => {
    const res = await fetch(`${h.base}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await res.text()).toBe(readFileSync(COMMITTED_PATH, "utf8"));
  });

  test("is OpenAPI 3.1 with bearer JWT security on the live and universe routes, and every $ref resolves", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer", bearerFormat: "JWT" });
    expect(doc.paths[LIVE].get.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(doc.paths).sort()).toEqual(
      ["/docs", "/health", "/openapi.json", "/v1/demo/chart", LIVE, "/v1/universes", "/v1/universes/{name}"].sort(),
    );
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(20);
    for (const r of new Set(refs)) {
      const target = r
        .slice(10, -1)
        .split("/")
        .reduce((o: any, k) => o?.[k], doc);
      expect(target, r).toBeDefined();
    }
    for (const name of Object.keys(doc.components.schemas)) expect(() => schemaValidator(`#/components/schemas/${name}`)).not.toThrow();
  });

  test("the live route lists every parameter with its bounds and defaults", () => {
    const params = Object.fromEntries(doc.paths[LIVE].get.parameters.map((p: any) => [p.name, p.schema]));
    expect(params.lookback).toEqual({ default: 60, type: "integer", minimum: 2, maximum: 1000 });
    expect(params.interval.enum).toEqual(["1m", "5m", "15m", "30m", "1h", "1d", "1w"]);
    expect(params.format).toMatchObject({ default: "json", enum: ["json", "csv", "ndjson"] });
    expect(params.hierarchy).toEqual({ default: "none", type: "string", enum: ["none", "single", "average", "complete", "ward"] });
    expect(params.clusters).toEqual({ type: "integer", minimum: 1, maximum: 500 });
    expect(params.weights.enum).toEqual(["none", "hrp", "equal", "inverse_variance"]);
    expect(doc.paths[LIVE].get.description).toContain('pd.read_csv(url, storage_options={"Authorization": "Bearer <token>"})');
  });
});

describe("real responses match the document", () => {
  test("200 snapshot, with every graph option", async () => {
    for (const [i, q] of [
      "",
      "?include_graph=false",
      "?graph_method=knn&sort=pagerank&metrics=pagerank,degree_strength",
      "?graph_method=pmfg&corr_method=kendall&hierarchy=ward&hierarchy_distance=signed&clusters=4&weights=hrp",
    ].entries()) {
      const res = await h.get(`${LIVE}${q}`, { token: await h.token(`snap-${i}`) });
      expect(res.status).toBe(200);
      const body = await conforms(res, LIVE);
      expect(body.data.type).toBe("snapshot");
    }
  });

  test("a body that drifts from the schema is refused (the checks above can fail)", async () => {
    const res = await h.get(`${LIVE}?periods=2`, { token: await h.token("drift") });
    const body = await res.json();
    const validate = schemaValidator("#/components/schemas/ChartEnvelope");
    expect(validate(body)).toBe(true);
    for (const change of [
      (b: any) => (b.data.stocks[0].points[0].new_metric = 1),
      (b: any) => (b.data.stocks[0].points[0].pagerank = "0.1"),
      (b: any) => delete b.meta.params.lookback,
      (b: any) => (b.meta.diagnostics.extra = true),
      (b: any) => (b.errors = [{ code: "BAD_REQUEST", message: "x" }]),
      (b: any) => (b.data.weights = { method: "hrp" }), // a rolling answer's weights carry turnover
      (b: any) => (b.data.latest_hierarchy = { merges: [[0, 1, 0.5]] }),
    ]) {
      const copy = structuredClone(body);
      change(copy);
      expect(validate(copy)).toBe(false);
    }
  });

  test("200 rolling, with include_graph=all and a start/end range", async () => {
    for (const [i, q] of [
      "?periods=5",
      "?periods=3&include_graph=all",
      "?start=2025-06-01&end=2025-07-01&step=5",
      "?periods=4&corr_method=distance&weights=hrp&clusters=3&include_graph=all",
      "?periods=3&weights=equal&include_graph=false",
    ].entries()) {
      const res = await h.get(`${LIVE}${q}`, { token: await h.token(`roll-${i}`) });
      expect(res.status).toBe(200);
      expect((await conforms(res, LIVE)).data.type).toBe("rolling");
    }
  });

  test("200 tidy rows: format=ndjson lines are TidyRows, format=csv is declared", async () => {
    const nd = await h.get(`${LIVE}?periods=3&format=ndjson&weights=hrp&clusters=4`, { token: await h.token("tidy-1") });
    expect(nd.status).toBe(200);
    expect((await conforms(nd, LIVE)).length).toBeGreaterThan(10);
    const csv = await h.get(`${LIVE}?format=csv`, { token: await h.token("tidy-2") });
    expect(csv.status).toBe(200);
    expect(await conforms(csv, LIVE)).toStartWith("date,symbol,metric,value,community\n");
  });

  test("400, 401 (with WWW-Authenticate), 404 and 429 (with Retry-After)", async () => {
    const token = await h.token("errors");
    const bad = await h.get(`${LIVE}?lookback=5000&bogus=1`, { token });
    expect(bad.status).toBe(400);
    expect((await conforms(bad, LIVE)).errors.length).toBe(2);
    for (const auth of [undefined, "Bearer not.a.jwt"]) {
      const res = await h.get(LIVE, auth ? { headers: { Authorization: auth } } : {});
      expect(res.status).toBe(401);
      await conforms(res, LIVE);
    }
    const unknown = await h.get(`${LIVE}?universe=nope`, { token });
    expect(unknown.status).toBe(404);
    await conforms(unknown, LIVE);
    expect((await h.get(LIVE, { token })).status).toBe(200);
    const limited = await h.get(LIVE, { token });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).not.toBeNull();
    expect((await conforms(limited, LIVE)).errors[0].code).toBe("RATE_LIMITED");
  });

  test("the universes: 200, 304, 400, 401 and 404", async () => {
    const token = await h.token("catalogue");
    const list = await h.get("/v1/universes", { token });
    expect(list.status).toBe(200);
    expect((await conforms(list, "/v1/universes")).data.universes[0].name).toBe("sample");
    const one = await h.get("/v1/universes/sample", { token });
    expect(one.status).toBe(200);
    expect((await conforms(one, "/v1/universes/{name}")).data.symbols.length).toBe(50);
    const same = await h.get("/v1/universes/sample", { token, headers: { "If-None-Match": one.headers.get("etag")! } });
    expect(same.status).toBe(304);
    expect(doc.paths["/v1/universes/{name}"].get.responses["304"]).toBeDefined();
    for (const [path, declared, res] of [
      ["/v1/universes?x=1", "/v1/universes", 400],
      ["/v1/universes", "/v1/universes", 401],
      ["/v1/universes/nope", "/v1/universes/{name}", 404],
    ] as const) {
      const r = await h.get(path, res === 401 ? {} : { token });
      expect(r.status).toBe(res);
      await conforms(r, declared);
    }
  });

  test("405 on every route, the demo (snapshot and rolling) and /health", async () => {
    for (const path of Object.keys(doc.paths)) {
      const res = await fetch(h.base + path, { method: "DELETE" });
      expect(res.status).toBe(405);
      await conforms(res, path);
    }
    for (const q of ["", "?periods=4"]) {
      const res = await h.get(`/v1/demo/chart${q}`);
      expect(res.status).toBe(200);
      await conforms(res, "/v1/demo/chart");
    }
    const health = await h.get("/health");
    expect(health.status).toBe(200);
    await conforms(health, "/health");
  });
});
