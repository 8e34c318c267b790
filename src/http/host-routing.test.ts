/**
 * Routing must follow the path of the request line, whatever the Host header says (issue #12
 * item 9): Elysia located the path at the first "/" after character 11 of the URL, so with a
 * host under 4 characters `/zz/health` was routed as `/health`. Raw HTTP over a socket, because
 * fetch() always sends the real host.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { startHarness, type Harness } from "../../test/support/http/harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.stop());

/** Sends one raw request and returns the status code and the parsed JSON body. */
function raw(target: string, host: string | null, extra = ""): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const socket = connect(h.server.port, "127.0.0.1");
    let out = "";
    socket.setEncoding("latin1");
    socket.on("data", (d) => (out += d));
    socket.on("error", reject);
    socket.on("end", () => {
      const status = Number(out.slice(9, 12));
      const text = out.slice(out.indexOf("\r\n\r\n") + 4);
      resolve({ status, body: text ? JSON.parse(text) : null });
    });
    const hostLine = host === null ? "" : `Host: ${host}\r\n`;
    socket.write(`GET ${target} HTTP/1.1\r\n${hostLine}${extra}Connection: close\r\n\r\n`);
  });
}

describe("routing does not depend on the Host header", () => {
  for (const host of ["x", "ab", "abc", "abcd", "127.0.0.1:1", "a-much-longer-host.example"]) {
    test(`Host: ${host} — /zz/health and /xyz/v1/graph-stats/chart are 404, /health is 200`, async () => {
      const nested = await raw("/zz/health", host);
      expect(nested.status).toBe(404);
      expect(nested.body).toMatchObject({ success: false, data: null, errors: [{ code: "NOT_FOUND" }] });
      expect(nested.body.errors[0].message).toContain("/zz/health");
      const live = await raw("/xyz/v1/graph-stats/chart", host, "Authorization: Bearer x\r\n");
      expect(live.status).toBe(404);
      expect(live.body.errors[0].code).toBe("NOT_FOUND");
      expect((await raw("/health", host)).status).toBe(200);
      expect((await raw("/v1/graph-stats/chart", host)).status).toBe(401);
    });
  }

  test("an absolute-form request target is routed on its own path, not the Host header's", async () => {
    expect((await raw("http://y/zz/health", "x")).status).toBe(404);
    expect((await raw("http://y/health", "x")).status).toBe(200);
  });
});
