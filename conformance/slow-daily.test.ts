/**
 * --slow against the real server: with 2/min and 3/day the kit must wait out one RATE_LIMITED
 * (honouring Retry-After, about a minute of real time) before the daily quota refuses it.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { runKit } from "./lib/runner.ts";
import { type RunningServer, startServer } from "./mutants/server-harness.ts";

const SECRET = `conformance-slow-${crypto.randomUUID()}`;
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ secret: SECRET, perMinute: 2, perDay: 3 });
}, 60_000);
afterAll(async () => server?.stop());

test("without --slow the daily checks skip, with the reason", async () => {
  const r = await runKit({
    baseUrl: server.url,
    secret: SECRET,
    budget: 20,
    slow: false,
    profile: "full",
    reporter: "text",
    limitsFromHeaders: true,
    timeoutMs: 15_000,
    only: ["limits.daily-quota"],
  });
  expect(r.results[0]!.outcome).toBe("skipped");
  expect(r.results[0]!.reason).toContain("--slow");
});

test("with --slow the kit waits Retry-After and reaches DAILY_QUOTA_EXCEEDED", async () => {
  const t0 = Date.now();
  const r = await runKit({
    baseUrl: server.url,
    secret: SECRET,
    budget: 20,
    slow: true,
    profile: "full",
    reporter: "text",
    limitsFromHeaders: true,
    timeoutMs: 15_000,
    only: ["limits.daily-quota", "limits.daily-details"],
  });
  expect(r.results.map((x) => `${x.id}:${x.outcome}:${x.reason ?? ""}`)).toEqual([
    "limits.daily-quota:passed:",
    "limits.daily-details:passed:",
  ]);
  // It really waited for the minute window rather than being let through early.
  expect(Date.now() - t0).toBeGreaterThan(30_000);
}, 150_000);
