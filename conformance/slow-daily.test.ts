/**
 * --slow against the real server: with 2/min and 3/day the kit must wait out one RATE_LIMITED
 * (honouring Retry-After, about a minute) before the daily quota refuses it. The server runs with a
 * test clock and the kit's clock moves it, so the minute passes for both without a real minute.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SECRET, startHarness, type Harness } from "../test/support/http/harness.ts";
import { runKit } from "./lib/runner.ts";
import type { KitClock, KitOptions } from "./lib/types.ts";

let h: Harness;
let waited = 0;
let clock: KitClock;

beforeAll(async () => {
  h = await startHarness({ ratePerMinute: 2, ratePerDay: 3 }, { start: new Date().toISOString() });
  clock = {
    now: () => h.clock.now(),
    sleep: async (ms) => {
      waited += ms;
      h.clock.tick(ms);
    },
  };
});
afterAll(async () => h?.stop());

const options = (slow: boolean): KitOptions => ({
  baseUrl: h.base,
  secret: SECRET,
  budget: 20,
  slow,
  profile: "full",
  reporter: "text",
  limitsFromHeaders: true,
  timeoutMs: 15_000,
  only: ["limits.daily-quota", "limits.daily-details"],
  clock,
});

test("without --slow the daily checks skip, with the reason", async () => {
  const r = await runKit({ ...options(false), only: ["limits.daily-quota"] });
  expect(r.results[0]!.outcome).toBe("skipped");
  expect(r.results[0]!.reason).toContain("--slow");
});

test("with --slow the kit waits Retry-After and reaches DAILY_QUOTA_EXCEEDED", async () => {
  const t0 = Date.now();
  const r = await runKit(options(true));
  expect(r.results.map((x) => `${x.id}:${x.outcome}:${x.reason ?? ""}`)).toEqual([
    "limits.daily-quota:passed:",
    "limits.daily-details:passed:",
  ]);
  // It waited for the minute window (on the shared clock) rather than being let through early, in no real minute.
  expect(waited).toBeGreaterThan(30_000);
  expect(Date.now() - t0).toBeLessThan(20_000);
});
