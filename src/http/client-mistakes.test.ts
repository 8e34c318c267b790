/**
 * Client mistakes are client errors (#23 item 6): a 4xx in the status, the access line and the
 * metrics, never an error line in the log; a body cut off before its declared length is a 400.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { loadConfig } from "../config.ts";
import { captureLogger } from "../../test/support/capture-logger.ts";
import { sampleDb, SECRET } from "../../test/support/http/harness.ts";
import { startServer, type RunningServer } from "../server.ts";

const logger = captureLogger();
let server: RunningServer;
beforeAll(async () => {
  const config = loadConfig({ port: "0", host: "127.0.0.1", db: sampleDb(), jwtSecret: SECRET, sample: false }, {});
  server = await startServer(config, logger);
});
afterAll(() => server.stop());

/**
 * The log's lines once `ready` holds for them: a request whose client has gone is still answered
 * (and logged) after the socket closes, so the test waits for that line rather than a fixed time.
 */
async function logLines(ready: (lines: typeof logger.lines) => boolean = () => true): Promise<typeof logger.lines> {
  for (let waited = 0; !ready(logger.lines) && waited < 10_000; waited += 10) await Bun.sleep(10);
  return logger.lines;
}

/** Sends `head` and `body` on a raw socket, then half-closes it, and returns the status line's code (0 if none). */
async function raw(head: string, body: string): Promise<number> {
  const { connect } = await import("node:net");
  return new Promise((resolve) => {
    let text = "";
    const s = connect({ host: "127.0.0.1", port: server.port, allowHalfOpen: true }, () => {
      s.write(head + body);
      s.end();
    });
    s.on("data", (d) => (text += d.toString()));
    s.on("close", () => resolve(Number(text.slice(9, 12)) || 0));
    s.on("error", () => resolve(0));
  });
}

test("100 anonymous dashboard calls are 401 in the access log and write no error line", async () => {
  for (let i = 0; i < 100; i++) expect((await fetch(`${server.url}/dashboard/api/state`)).status).toBe(401);
  const lines = await logLines();
  expect(lines.filter((l) => l.path === "/dashboard/api/state" && l.status === 401)).toHaveLength(100);
  expect(lines.filter((l) => l.level === "error")).toEqual([]);
});

test("a POST body cut off before its Content-Length is a 400, not a 500 with an error line", async () => {
  const head = `POST /auth/logout HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${server.url}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n`;
  const status = await raw(head, "csrf=abc");
  const lines = await logLines((all) => all.some((l) => l.path === "/auth/logout"));
  const logged = lines.filter((l) => l.path === "/auth/logout").map((l) => l.status);
  expect(logged).toHaveLength(1);
  expect(logged[0]).toBeGreaterThanOrEqual(400);
  expect(logged[0]).toBeLessThan(500);
  if (status !== 0) expect(status).toBe(logged[0] as number);
  expect(lines.filter((l) => l.level === "error")).toEqual([]);
});
