import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { parseChartParams } from "./params/params.ts";
import { SAMPLE_END_DATE, sampleSeriesInput } from "../market/index.ts";
import { inlineCompute } from "../compute/compute-pool.ts";
import { body, startHarness, type Harness } from "../../test/support/http/harness.ts";
import { holdNext } from "../../test/support/http/hold-compute.ts";
import { until } from "../../test/support/until.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ corsOrigins: "https://app.example" });
});
afterAll(() => h.stop());

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const RATE_HEADERS = [
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-daily-limit",
  "x-ratelimit-daily-remaining",
  "x-ratelimit-reset",
];

describe("GET /health", () => {
  test("answers ok with version, uptime and the database check, unmetered", async () => {
    const res = await h.get("/health");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const b = await body(res);
    expect(b.success).toBe(true);
    expect(b.errors).toEqual([]);
    expect(b.data).toMatchObject({ status: "ok", service: "graph-stats", checks: { database: "ok" } });
    expect(b.data.uptime_s).toBeGreaterThanOrEqual(0);
    expect(b.meta.generated_at).toMatch(ISO_UTC);
    for (const name of RATE_HEADERS) expect(res.headers.get(name)).toBeNull();
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  test("503 SERVICE_UNAVAILABLE with the failing check when the database does not answer", async () => {
    const broken = await startHarness({}, { override: { checkDatabase: () => false } });
    try {
      const res = await broken.get("/health");
      expect(res.status).toBe(503);
      const b = await body(res);
      expect(b).toMatchObject({ success: false, data: null, errors: [{ code: "SERVICE_UNAVAILABLE" }] });
      expect(b.errors[0].message).toContain("database");
    } finally {
      await broken.stop();
    }
  });
});

describe("GET /v1/demo/chart", () => {
  test("public snapshot; garbage Authorization ignored; no rate-limit headers; data identical across calls", async () => {
    const a = await h.get("/v1/demo/chart");
    const b = await h.get("/v1/demo/chart?lookback=5&foo=bar", { headers: { Authorization: "Bearer garbage.garbage" } });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const ja = await body(a);
    const jb = await body(b);
    expect(ja.data.type).toBe("snapshot");
    expect(ja.data.stocks.length).toBeGreaterThan(40);
    expect(ja.meta.demo).toBe(true);
    expect(ja.meta.diagnostics.data_source).toBe("synthetic");
    expect(JSON.stringify(jb.data)).toBe(JSON.stringify(ja.data));
    for (const name of RATE_HEADERS) expect(a.headers.get(name)).toBeNull();
  });

  test("periods=2…10 returns a fixed rolling sample; other values the snapshot", async () => {
    const r = await body(await h.get("/v1/demo/chart?periods=5"));
    expect(r.data.type).toBe("rolling");
    expect(r.data.asof_dates).toHaveLength(5);
    expect((await body(await h.get("/v1/demo/chart?periods=11"))).data.type).toBe("snapshot");
    expect((await body(await h.get("/v1/demo/chart?periods=abc"))).data.type).toBe("snapshot");
  });

  test("the data is computeChart's on the in-memory sample at the fixed as-of; n_requested counts its symbols", async () => {
    const got = await body(await h.get("/v1/demo/chart?periods=3"));
    const parsed = parseChartParams(new URLSearchParams({ asof: SAMPLE_END_DATE, periods: "3" }), { defaultUniverse: "sample" });
    if (!parsed.ok) throw new Error(parsed.errors.join("; "));
    const sample = sampleSeriesInput();
    expect(JSON.stringify(got.data)).toBe(inlineCompute(sample, parsed.params).body);
    expect(got.meta.diagnostics.n_requested).toBe(sample.symbols.length);
    // meta.params echoes the engine's parameters and the response's format, as before.
    expect(got.meta.params).toEqual(JSON.parse(JSON.stringify({ ...parsed.params, format: "json" })));
  });

  test("a first call computes at the compute pool (/health answers meanwhile); concurrent first calls share it", async () => {
    const fresh = await startHarness();
    try {
      const before = fresh.server.compute.started();
      // The computation is held at the pool until /health has answered: an order of events, not a race.
      const held = holdNext(fresh.server.compute);
      let answered = 0;
      const demos = Promise.all(
        [0, 1].map(() =>
          fresh.get("/v1/demo/chart?periods=10").then(async (r) => {
            answered++;
            return { status: r.status, data: JSON.stringify((await body(r)).data) };
          }),
        ),
      );
      await until(() => held.calls() === 1);
      expect((await fresh.get("/health")).status).toBe(200);
      expect(answered).toBe(0);
      held.release();
      const [a, b] = await demos;
      expect([a!.status, b!.status]).toEqual([200, 200]);
      expect(a!.data).toBe(b!.data);
      expect(held.calls()).toBe(1);
      expect(fresh.server.compute.started() - before).toBe(1);
    } finally {
      await fresh.stop();
    }
  });

  test("gzip when accepted and over 1 KiB", async () => {
    const res = await fetch(`${h.base}/v1/demo/chart`, { headers: { "Accept-Encoding": "gzip" }, decompress: false } as RequestInit);
    expect(res.headers.get("content-encoding")).toBe("gzip");
    const raw = new Uint8Array(await res.arrayBuffer());
    expect(Number(res.headers.get("content-length"))).toBe(raw.byteLength);
    const text = gunzipSync(raw).toString("utf8");
    expect(JSON.parse(text).success).toBe(true);
    const plain = await fetch(`${h.base}/v1/demo/chart`, { headers: { "Accept-Encoding": "identity" }, decompress: false } as RequestInit);
    expect(plain.headers.get("content-encoding")).toBeNull();
  });
});

describe("routing and envelope on every route (through the app's handler: the socket adds nothing here)", () => {
  test("unknown route → 404 NOT_FOUND envelope", async () => {
    const res = await h.handle("/v2/nothing");
    expect(res.status).toBe(404);
    const b = await body(res);
    expect(b).toMatchObject({ success: false, data: null, errors: [{ code: "NOT_FOUND" }] });
    expect(b.meta.generated_at).toMatch(ISO_UTC);
    expect(b.meta.request_id).toBe(res.headers.get("x-request-id"));
  });

  for (const path of ["/health", "/v1/demo/chart", "/v1/graph-stats/chart"]) {
    test(`POST ${path} → 405 METHOD_NOT_ALLOWED with Allow: GET`, async () => {
      const res = await h.handle(path, { method: "POST", body: "x" });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("GET");
      expect((await body(res)).errors[0].code).toBe("METHOD_NOT_ALLOWED");
    });
  }

  test("routes are declared once: a path's other methods are 405 naming its own, router params reach the route, metrics label the declared path", async () => {
    const seen: string[] = [];
    const labels: string[] = [];
    const app = await startHarness(
      {},
      {
        override: {
          dashboard: [
            {
              method: "POST",
              path: "/dashboard/api/tokens/:jti/revoke",
              handler: (_req, st) => {
                seen.push(String(st.params.jti));
                return new Response("ok");
              },
            },
          ],
          metrics: { request: (label: string) => void labels.push(label) } as never,
        },
      },
    );
    try {
      const wrong = await app.handle("/dashboard/api/tokens/abc/revoke");
      expect([wrong.status, wrong.headers.get("allow"), (await body(wrong)).errors[0].code]).toEqual([405, "POST", "METHOD_NOT_ALLOWED"]);
      expect((await app.handle("/dashboard/api/tokens/a%20b/revoke", { method: "POST" })).status).toBe(200);
      expect(seen).toEqual(["a b"]);
      await app.handle("/nowhere/123");
      expect(labels).toEqual(["/dashboard/api/tokens/:jti/revoke", "/dashboard/api/tokens/:jti/revoke", "unmatched"]);
      const missing = await body(await app.handle("/nowhere"));
      expect(missing.errors[0].message).toBe(
        "no route for GET /nowhere; routes: GET /health, GET /v1/demo/chart, GET /v1/graph-stats/chart, GET /v1/universes, GET /v1/universes/{name}, GET /openapi.json, GET /docs",
      );
    } finally {
      await app.stop();
    }
  });

  test("HEAD answers headers without a body", async () => {
    const res = await h.handle("/health", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  test("X-Request-Id: a valid caller id is echoed, an invalid one replaced", async () => {
    const ok = await h.handle("/health", { headers: { "X-Request-Id": "abc.DEF_1-2" } });
    expect(ok.headers.get("x-request-id")).toBe("abc.DEF_1-2");
    expect((await body(ok)).meta.request_id).toBe("abc.DEF_1-2");
    const bad = await h.handle("/health", { headers: { "X-Request-Id": "has space" } });
    expect(bad.headers.get("x-request-id")).not.toBe("has space");
    expect(bad.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
    const long = await h.handle("/health", { headers: { "X-Request-Id": "a".repeat(65) } });
    expect(long.headers.get("x-request-id")).not.toBe("a".repeat(65));
  });

  test("CORS: live endpoint allows only configured origins; preflight is never metered", async () => {
    const pre = await h.handle("/v1/graph-stats/chart", {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "GET" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(pre.headers.get("access-control-allow-headers")).toContain("Authorization");
    const other = await h.handle("/v1/graph-stats/chart", { method: "OPTIONS", headers: { Origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    const token = await h.token("cors-user");
    const live = await h.handle("/v1/graph-stats/chart?lookback=20", { token, headers: { Origin: "https://app.example" } });
    expect(live.status).toBe(200);
    expect(live.headers.get("access-control-expose-headers")).toContain("Retry-After");
    expect(live.headers.get("access-control-expose-headers")).toContain("X-RateLimit-Remaining");
    expect(live.headers.get("x-ratelimit-daily-remaining")).toBe("29"); // the preflights did not count
  });
});
