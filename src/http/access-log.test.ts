/**
 * Audit of the request log (README.md § Operations): one JSON line per request, written when the
 * request is served (an operator tailing stdout must see it; a crash must not lose a quiet hour of
 * lines), and never a token or secret.
 */
import { describe, expect, test } from "bun:test";
import { mintToken } from "../auth/index.ts";
import { systemClock } from "../clock.ts";
import { sampleDb } from "../../test/support/http/harness.ts";
import { spawnServer } from "../../test/support/http/process.ts";

const SECRET = "audit-log-secret-0123456789-abcdef";

async function waitFor(pred: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (pred()) return true;
    await Bun.sleep(50);
  }
  return pred();
}

describe("request log lines", () => {
  test("a single request on a quiet server is logged promptly, not held in a 4 KiB buffer until shutdown", async () => {
    const server = await spawnServer(["--port", "0", "--db", sampleDb(), "--jwt-secret", SECRET, "--no-sample"]);
    try {
      const res = await fetch(`${server.base}/health`, { headers: { "X-Request-Id": "audit-quiet-1" } });
      expect(res.status).toBe(200);
      const seen = await waitFor(() => server.logs.some((l) => l.includes('"audit-quiet-1"')), 3_000);
      expect(seen).toBe(true);
    } finally {
      await server.stop();
    }
  }, 30_000);

  test("tokens and secrets never reach the log, whatever the outcome of the request", async () => {
    const server = await spawnServer([
      "--port",
      "0",
      "--db",
      sampleDb(),
      "--jwt-secret",
      SECRET,
      "--no-sample",
      "--default-universe",
      "sample",
    ]);
    const { token } = await mintToken({ secret: SECRET, userId: "log-user", ttlSeconds: 3600, clock: systemClock });
    const { token: forged } = await mintToken({
      secret: "another-secret-0123456789abcdef",
      userId: "log-user",
      ttlSeconds: 3600,
      clock: systemClock,
    });
    const hit = (auth: string, q = "lookback=20") =>
      fetch(`${server.base}/v1/graph-stats/chart?${q}`, { headers: { Authorization: auth } }).then((r) => r.status);
    expect(await hit(`Bearer ${token}`)).toBe(200);
    expect(await hit(`Bearer ${token}`)).toBe(429);
    expect(await hit(`Bearer ${token}`, "lookback=1")).toBe(400);
    expect(await hit(`Bearer ${forged}`)).toBe(401);
    expect(await hit(`Basic ${token}`)).toBe(401);
    expect(await hit(`Bearer ${token}`, `token=${token}`)).toBe(400);
    expect(await server.stop()).toBe(0);
    const liveLines = () => server.logs.filter((l) => l.includes('"path":"/v1/graph-stats/chart"'));
    await waitFor(() => liveLines().length === 6, 10_000); // stdout may still be draining after exit
    expect(liveLines()).toHaveLength(6);
    const all = server.logs.join("\n");
    for (const secretish of [SECRET, token, forged, token.split(".")[2], forged.split(".")[2]]) {
      expect(all).not.toContain(secretish);
    }
  }, 30_000);
});
