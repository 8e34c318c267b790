/**
 * Audit findings on requests the HTTP layer refuses before routing: every one must still be the
 * JSON envelope of docs/api.md § The envelope (with X-Request-Id), and the live endpoint's order is
 * authenticate → validate (docs/api.md § Metering), so a known user's 400 carries the rate-limit
 * headers.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { body, startHarness, type Harness } from "../../test/support/http/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

/** Sends raw bytes and returns whatever the server answers before closing (empty if nothing). */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let out = "";
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(text));
    socket.on("data", (chunk) => {
      out += chunk;
      // One response is enough; the body is small JSON.
      if (/\r\n\r\n[\s\S]*\}$/.test(out)) socket.end();
    });
    socket.on("end", () => resolve(out));
    socket.on("close", () => resolve(out));
    socket.on("error", reject);
  });
}

describe("query strings over 8 KiB", () => {
  test("8 KiB to 16 KiB is the 400 envelope; beyond Bun's 16 KiB header limit the runtime answers a bare 431 (documented)", async () => {
    const token = await h.token("big-query");
    const res = await h.get(`/v1/graph-stats/chart?lookback=20&x=${"a".repeat(15 * 1024)}`, { token });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("x-request-id")).toMatch(/^[A-Za-z0-9._-]{1,64}$/);
    const b = await body(res);
    expect(b).toMatchObject({ success: false, data: null, errors: [{ code: "BAD_REQUEST" }] });
    expect(b.errors[0].message).toContain("8192");
    // Refused by Bun's HTTP parser before any application code runs (README: Limits).
    const huge = await h.get(`/v1/graph-stats/chart?lookback=20&x=${"a".repeat(20 * 1024)}`, { token });
    expect(huge.status).toBe(431);
  });

  test("exactly 8192 bytes passes the size check; 8193 is refused naming the size", async () => {
    const token = await h.token("edge-query");
    const pad = (n: number) => {
      const head = "lookback=20&symbols=INFY,TCS&asof=";
      return head + "x".repeat(n - head.length);
    };
    const at = await h.get(`/v1/graph-stats/chart?${pad(8192)}`, { token });
    expect(at.status).toBe(400);
    expect((await body(at)).errors[0].message).toStartWith("asof must be a calendar date");
    const over = await h.get(`/v1/graph-stats/chart?${pad(8193)}`, { token });
    expect(over.status).toBe(400);
    expect((await body(over)).errors[0].message).toBe("query string is 8193 bytes; at most 8192 are allowed");
  });

  test("authentication comes first: a known user's oversized query gets the rate-limit headers", async () => {
    const token = await h.token("big-query-known");
    const res = await h.get(`/v1/graph-stats/chart?lookback=20&x=${"a".repeat(9000)}`, { token });
    expect(res.status).toBe(400);
    expect(res.headers.get("x-ratelimit-limit")).toBe("1");
    expect(res.headers.get("x-ratelimit-daily-remaining")).toBe("30");
    const anonymous = await h.get(`/v1/graph-stats/chart?lookback=20&x=${"a".repeat(9000)}`);
    expect(anonymous.status).toBe(401);
  });
});

describe("methods other than GET/HEAD/OPTIONS", () => {
  // A method token Bun's parser does not know (e.g. FOO) is dropped by the runtime before the
  // app sees it (README: Limits); every registered method gets the 405 envelope.
  for (const method of ["PROPFIND", "PATCH", "DELETE"]) {
    test(`${method} on a known path → 405 METHOD_NOT_ALLOWED envelope with Allow: GET`, async () => {
      const answer = await rawRequest(h.server.port, `${method} /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(answer).toStartWith("HTTP/1.1 405");
      expect(answer.toLowerCase()).toContain("\r\nallow: get\r\n");
      expect(answer).toContain('"code":"METHOD_NOT_ALLOWED"');
    });
  }
});
