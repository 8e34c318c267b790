import { expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { jsonResponse, largeResponse, OFF_LOOP_GZIP_BYTES } from "./envelope.ts";

test("a large body is gzipped off the loop with the same headers jsonResponse gives; HEAD says its length; small ones go through jsonResponse", async () => {
  const body = JSON.stringify({ rows: "x,1.5\n".repeat(OFF_LOOP_GZIP_BYTES / 4) });
  const res = await largeResponse(body, 200, { "X-Request-Id": "r" }, "gzip, br", false, "text/csv; charset=utf-8");
  expect(res.headers.get("content-encoding")).toBe("gzip");
  expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  expect(res.headers.get("vary")).toBe("Accept-Encoding");
  const zipped = new Uint8Array(await res.arrayBuffer());
  expect(gunzipSync(zipped).toString()).toBe(body);
  const head = await largeResponse(body, 200, {}, "gzip", true);
  expect(head.headers.get("content-length")).toBe(String(zipped.byteLength));
  expect(await head.text()).toBe("");
  // Not accepted, or small: exactly what jsonResponse makes.
  const plain = await largeResponse(body, 200, {}, null);
  expect(plain.headers.get("content-encoding")).toBeNull();
  expect(await plain.text()).toBe(body);
  const small = await largeResponse('{"a":1}', 200, {}, "gzip");
  const direct = jsonResponse('{"a":1}', 200, {}, "gzip");
  expect([...small.headers]).toEqual([...direct.headers]);
});
