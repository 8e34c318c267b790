/**
 * The fuzz profile against the real server: it passes with fresh users (--secret) on the default
 * limits, the CLI prints the seed and the cases per operation, and with only --token it spends at
 * most --budget, waiting for Retry-After on the kit's clock (a server with a test clock: no real minute).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { serverBinary } from "../../test/support/binary.ts";
import { type Harness, sampleDb, startHarness } from "../../test/support/http/harness.ts";
import { runKit } from "../lib/runner.ts";
import { textReport } from "../reporters/text.ts";
import type { KitClock, KitOptions } from "../lib/types.ts";
import { type RunningServer, startServer } from "../mutants/server-harness.ts";

const SECRET = `conformance-fuzz-${crypto.randomUUID()}`;
let server: RunningServer;
let h: Harness;
let waited = 0;
let clock: KitClock;

beforeAll(async () => {
  [server, h] = await Promise.all([
    startServer({ secret: SECRET, perMinute: 1, perDay: 30, db: sampleDb(), bin: await serverBinary() }),
    startHarness({ ratePerMinute: 1, ratePerDay: 30 }, { start: new Date().toISOString() }),
  ]);
  clock = {
    now: () => h.clock.now(),
    sleep: async (ms) => {
      waited += ms;
      h.clock.tick(ms);
    },
  };
}, 60_000);
afterAll(async () => Promise.all([server?.stop(), h?.stop()]));

const fuzz = (baseUrl: string, extra: Partial<KitOptions>): KitOptions => ({
  baseUrl,
  budget: 300,
  slow: false,
  profile: "fuzz",
  reporter: "text",
  limitsFromHeaders: false,
  timeoutMs: 15_000,
  seed: 424242,
  cases: 40,
  ...extra,
});

describe("the fuzz profile against the real server", () => {
  test("passes with fresh users, reaching 200s, 400s, the 401s and a judged 429", async () => {
    const r = await runKit(fuzz(server.url, { secret: SECRET }));
    expect(r.results.map((x) => `${x.id}:${x.outcome}${x.reason ? `: ${x.reason}` : ""}`)).toEqual([
      "fuzz.document:passed",
      "fuzz.public:passed",
      "fuzz.live:passed",
      "fuzz.credentials:passed",
    ]);
    const live = r.fuzz!.operations.find((o) => o.check === "fuzz.live")!;
    expect(live).toMatchObject({ generated: 40, sent: 40 });
    for (const status of ["200", "400"]) expect(live.statuses[status]).toBeGreaterThan(0);
    // A fresh user's first answer is never a 429: the 429 judged is the second send of a case.
    expect(live.statuses["429"]).toBeUndefined();
    expect(live.again.statuses["429"]).toBeGreaterThan(0);
    expect(r.fuzz!.operations.find((o) => o.check === "fuzz.credentials")!.statuses).toEqual({ 401: 40 });
    expect(r.fuzz!.operations.map((o) => o.operation)).toContain("getDemoChart");
  }, 60_000);

  test("the report's counts add up: each case once, a second send apart", async () => {
    const r = await runKit(fuzz(server.url, { secret: SECRET, only: ["fuzz.live"], cases: 20 }));
    const live = r.fuzz!.operations[0]!;
    const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
    expect(live.again.sent).toBeGreaterThan(0);
    expect([sum(live.statuses), live.sent + sum(live.notSent), sum(live.again.statuses)]).toEqual([
      live.sent,
      live.generated,
      live.again.sent,
    ]);
    const line = textReport(r)
      .split("\n")
      .find((l) => l.includes("fuzz.live getChart:"))!;
    const [, generated, sent, statuses, again, againStatuses] =
      /: (\d+) generated, (\d+) sent; statuses ([^;]+); (\d+) of them sent again by the same user: (.+)$/.exec(line)!;
    const total = (text: string) => text.split(" ").reduce((n, c) => n + Number(c.split("×")[1]), 0);
    expect([total(statuses!), total(againStatuses!)]).toEqual([Number(sent), Number(again)]);
    expect(Number(generated)).toBe(20);
  }, 60_000);

  const cli = async (args: string[]) => {
    const proc = Bun.spawn([process.execPath, resolve(import.meta.dir, "../cli.ts"), "--base-url", server.url, ...args], {
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { out, err, code };
  };

  test("the CLI prints the seed and the cases per operation, and exits 0", async () => {
    const { out, code } = await cli(["--profile", "fuzz", "--seed", "5", "--cases", "8", "--only", "fuzz.document,fuzz.public"]);
    expect(code).toBe(0);
    expect(out).toContain("fuzz: seed 5 (rerun with --seed 5); 8 cases per operation and check");
    expect(out).toMatch(/ok {4}fuzz\.public getHealth: 8 generated, 8 sent; statuses 200×8/);
    expect(out.trimEnd().split("\n").at(-1)).toBe("2 passed, 0 failed, 0 skipped");
  }, 30_000);

  test("an OpenAPI document that cannot be read is bad usage (exit 2), saying what to pass", async () => {
    const missing = await cli(["--profile", "fuzz", "--openapi", "/no/such/openapi.json"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("--openapi: no file /no/such/openapi.json");
    const notOpenApi = resolve(import.meta.dir, "../../package.json");
    const wrong = await cli(["--profile", "fuzz", "--openapi", notOpenApi]);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain("is not an OpenAPI 3.0/3.1 document");
  }, 30_000);
});

describe("with only --token: budget and Retry-After", () => {
  test("without --slow it spends at most the budget and says why the other cases were not sent", async () => {
    const token = await h.token(`fuzz-token-${crypto.randomUUID()}`);
    const r = await runKit(fuzz(h.base, { token, budget: 3, clock, only: ["fuzz.live"] }));
    expect(r.results[0]!.outcome).toBe("passed");
    expect(r.meteredCallsSpent).toBeLessThanOrEqual(3);
    const live = r.fuzz!.operations[0]!;
    expect(live.sent).toBeLessThanOrEqual(3);
    const reasons = Object.keys(live.notSent).join(" | ");
    expect(reasons).toMatch(/budget of 3 spent|pass --slow/);
    expect(live.generated).toBe(40);
  }, 30_000);

  test("with --slow it waits for the window on the kit's clock, never retrying a 429 blind", async () => {
    const token = await h.token(`fuzz-slow-${crypto.randomUUID()}`);
    waited = 0;
    const t0 = Date.now();
    const r = await runKit(fuzz(h.base, { token, budget: 12, slow: true, clock, only: ["fuzz.live"], cases: 30 }));
    expect(r.results[0]!.outcome).toBe("passed");
    const live = r.fuzz!.operations[0]!;
    expect(r.meteredCallsSpent).toBeLessThanOrEqual(12);
    // More than one case was admitted (a 200), so it waited out at least one minute window, in no real minute.
    expect(live.statuses["200"]).toBeGreaterThan(1);
    expect(waited).toBeGreaterThan(55_000);
    expect(r.fuzz!.waitedMs).toBe(waited);
    expect(Date.now() - t0).toBeLessThan(20_000);
  }, 30_000);
});
