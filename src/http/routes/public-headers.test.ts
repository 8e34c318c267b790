import { expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import type { AppDeps, RequestState } from "../context.ts";
import { baseHeaders, PUBLIC } from "../cors.ts";
import { jsonResponse } from "../envelope.ts";
import { demoBody, handleDemo } from "./demo.ts";
import { handleHealth, healthyBody } from "./health.ts";

// /health and the demo build their headers from a template made once (envelope.ts jsonTemplate):
// they must be the headers the request's base plus the route's Cache-Control gave before.
const now = Date.parse("2026-11-22T10:00:00.123Z");
const payload = { dataJson: JSON.stringify({ nodes: Array.from({ length: 60 }, (_, i) => ({ id: `S${i}` })) }), extraMeta: { demo: true } };
const deps = {
  clock: { now: () => now },
  version: "1.2.3",
  startedAt: now - 5000,
  meter: { writeFailure: () => null },
  checkDatabase: () => true,
  isShuttingDown: () => false,
  demo: { payload: () => payload },
} as unknown as AppDeps;

const routes = [
  { path: "/health", cacheControl: "no-store", handle: handleHealth, body: (id: string) => healthyBody("1.2.3", now, 5, id) },
  { path: "/v1/demo/chart", cacheControl: "public, max-age=60", handle: handleDemo, body: (id: string) => demoBody(payload, now, id) },
];

test("/health and the demo answer the same headers as the request's base headers completed by jsonResponse", async () => {
  for (const { path, cacheControl, handle, body } of routes) {
    for (const method of ["GET", "HEAD"]) {
      for (const acceptEncoding of [null, "gzip"]) {
        for (const id of ["0b7c1f2e-8a8e-4a4f-9f3e-3f0b0d9b1a11", "caller.id-1_x"]) {
          const request = new Request(`http://127.0.0.1${path}`, {
            method,
            headers: acceptEncoding ? { "Accept-Encoding": acceptEncoding } : {},
          });
          const state: RequestState = {
            requestId: id,
            start: 0,
            userId: null,
            path,
            params: {},
            base: baseHeaders(PUBLIC, request.headers, id),
            server: null,
          };
          const res = await handle(deps, request, state);
          // /health is never compressed (its body is under 1 KiB); the demo is, when accepted.
          const before = jsonResponse(
            body(id),
            200,
            { ...baseHeaders(PUBLIC, request.headers, id), "Cache-Control": cacheControl },
            acceptEncoding,
            method === "HEAD",
          );
          expect([...res.headers]).toEqual([...before.headers]);
          expect(res.status).toBe(200);
          if (method === "GET") {
            const bytes = await res.bytes();
            const expected = body(id);
            expect(res.headers.get("content-encoding") === "gzip" ? gunzipSync(bytes).toString() : new TextDecoder().decode(bytes)).toBe(
              typeof expected === "string" ? expected : new TextDecoder().decode(expected),
            );
          }
        }
      }
    }
  }
});
