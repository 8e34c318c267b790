/** GET /docs and /openapi.json on a real server: public, self-contained, CSP-strict, cacheable, gzip, HEAD, CORS. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { startHarness, type Harness } from "../../../test/support/http/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

describe("GET /docs", () => {
  test("its examples name the server's public URL, and the curl example's symbols exist on a fresh install (#23 item 15)", async () => {
    const pub = await startHarness({ publicUrl: "https://stats.example.com" });
    try {
      const html = await (await fetch(`${pub.base}/docs`)).text();
      expect(html).not.toContain("127.0.0.1:8080");
      const example = /https:\/\/stats\.example\.com(\/v1\/graph-stats\/chart\?symbols=[^'&]+)&#38;(lookback=30)/.exec(html);
      expect(example).not.toBeNull();
      const res = await pub.get(`${example![1]}&${example![2]}`, { token: await pub.token("docs-reader") });
      expect(res.status).toBe(200);
    } finally {
      await pub.stop();
    }
    // Without --public-url: the address the server listens at.
    expect(await (await fetch(`${h.base}/docs`)).text()).toContain(`${h.base}/v1/graph-stats/chart?symbols=`);
  });

  test("an HTML reference of every route with no script and no external resource, under a strict CSP", async () => {
    const res = await fetch(`${h.base}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toStartWith("default-src 'none'; style-src 'sha256-");
    const html = await res.text();
    // The one inline stylesheet is the one the CSP hash allows.
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1];
    const hash = new Bun.CryptoHasher("sha256").update(style).digest("base64");
    expect(csp).toContain(`'sha256-${hash}'`);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\son[a-z]+=|\ssrc=|href="(?!#|\/)/i);
    for (const path of ["/v1/graph-stats/chart", "/v1/demo/chart", "/health", "/openapi.json"])
      expect(html).toContain(`<code>${path}</code>`);
    for (const text of ["lookback", "X-RateLimit-Remaining", "WWW-Authenticate", "Retry-After", "pd.read_csv", 'id="schema-SnapshotData"'])
      expect(html).toContain(text);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("x-request-id")).not.toBeNull();
  });

  test("gzip when accepted; HEAD gives the length and no body; OPTIONS is a preflight; POST is 405", async () => {
    for (const path of ["/docs", "/openapi.json"]) {
      const plain = await (await fetch(h.base + path, { headers: { "Accept-Encoding": "identity" } })).text();
      const zipped = await fetch(h.base + path, { headers: { "Accept-Encoding": "gzip" }, decompress: false } as RequestInit);
      expect(zipped.headers.get("content-encoding")).toBe("gzip");
      expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString()).toBe(plain);
      const head = await fetch(h.base + path, { method: "HEAD", headers: { "Accept-Encoding": "identity" } });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(plain)));
      expect(await head.text()).toBe("");
      const pre = await fetch(h.base + path, {
        method: "OPTIONS",
        headers: { Origin: "https://x.example", "Access-Control-Request-Method": "GET" },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get("access-control-allow-origin")).toBe("*");
      const post = await fetch(h.base + path, { method: "POST" });
      expect(post.status).toBe(405);
      expect(post.headers.get("allow")).toBe("GET");
      expect(((await post.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe("METHOD_NOT_ALLOWED");
    }
  });
});
