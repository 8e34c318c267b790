// The HTTP bench's baselines answer what our server answers: the captured bytes, or those bytes with
// a fresh id and time, plus (floor) one access line per request. A wrong baseline skews every ratio.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { until } from "../test/support/until.ts";
import { startBaseline } from "./baseline.ts";

const dir = mkdtempSync(join(tmpdir(), "gs-bare-server-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const body = JSON.stringify({
  success: true,
  data: { status: "ok" },
  errors: [],
  meta: { generated_at: "2026-01-01T00:00:00.000Z", request_id: "00000000-0000-4000-8000-000000000000", demo: true },
});
const capturedFile = join(dir, "captured.json");
writeFileSync(capturedFile, JSON.stringify({ "/health": { body, headers: { "content-type": "application/json", "x-extra": "1" } } }));

const start = (...flags: string[]) => startBaseline(capturedFile, ...flags);
const servers: { proc: { kill(): void } }[] = [];
afterAll(() => {
  for (const s of servers) s.proc.kill();
});

describe("bench/bare-server.ts", () => {
  test("bare: the captured bytes and headers, every time", async () => {
    const s = await start();
    servers.push(s);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${s.base}/health`);
      expect(await res.text()).toBe(body);
      expect(res.headers.get("x-extra")).toBe("1");
    }
    expect((await fetch(`${s.base}/nope`)).status).toBe(404);
  });

  test("stamped: the same bytes but a new request id (also in X-Request-Id) and the time", async () => {
    const s = await start("--stamped");
    servers.push(s);
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const before = Date.now();
      const res = await fetch(`${s.base}/health?x=1`);
      const text = await res.text();
      const meta = JSON.parse(text).meta;
      expect(res.headers.get("x-request-id")).toBe(meta.request_id);
      expect(meta.request_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(Date.parse(meta.generated_at)).toBeGreaterThanOrEqual(before - 1);
      expect(text).toBe(
        body.replace("2026-01-01T00:00:00.000Z", meta.generated_at).replace("00000000-0000-4000-8000-000000000000", meta.request_id),
      );
      ids.add(meta.request_id);
    }
    expect(ids.size).toBe(3);
  });

  test("logged: stamped, plus one access line per request in our logger's format", async () => {
    const log = join(dir, "floor.log");
    const s = await start("--logged", log);
    servers.push(s);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await fetch(`${s.base}/health`)).headers.get("x-request-id")!);
    // Lines are batched (up to 20 ms): the file is read until all three are there.
    const read = () => (existsSync(log) ? readFileSync(log, "utf8").trimEnd().split("\n").filter(Boolean) : []);
    await until(() => read().length >= ids.length);
    const lines = read().map((l) => JSON.parse(l));
    expect(lines.map((l) => l.request_id)).toEqual(ids);
    for (const l of lines) {
      expect(l).toMatchObject({ level: "info", service: "graph-stats", method: "GET", path: "/health", status: 200, user_id: null });
      expect(l.duration_ms).toBeGreaterThanOrEqual(0);
    }
  });
});
