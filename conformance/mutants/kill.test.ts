/**
 * Proves the kit: it passes against the real server and kills every mutant. Two real servers run:
 * A with the default limits (1/min, 30/day) and B with a daily quota below the minute limit (5/min, 3/day)
 * so the daily quota is reached in seconds. Prints the kill ratios.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { signJwt, userClaims } from "../lib/jwt.ts";
import { runKit, summaryLine } from "../lib/runner.ts";
import type { KitOptions, RunReport } from "../lib/types.ts";
import { MUTANTS } from "./catalog.ts";
import { startMutantProxy } from "./proxy.ts";
import { type RunningServer, startServer } from "./server-harness.ts";

const SECRET = `conformance-kill-${crypto.randomUUID()}`;
let serverA: RunningServer;
let serverB: RunningServer;

const base = (baseUrl: string): KitOptions => ({
  baseUrl,
  budget: 300,
  slow: false,
  profile: "full",
  reporter: "text",
  limitsFromHeaders: false,
  timeoutMs: 30_000,
});
const fullA = (url: string): KitOptions => ({ ...base(url), secret: SECRET });
const fullB = (url: string): KitOptions => ({ ...base(url), secret: SECRET, limitsFromHeaders: true });
/** Core with only a token: what a user of a production deployment without the secret can run. */
const coreToken = async (url: string, user: string): Promise<KitOptions> => ({
  ...base(url),
  profile: "core",
  budget: 3,
  token: await signJwt(userClaims(user), SECRET),
});

const failed = (r: RunReport) => r.results.filter((x) => x.outcome === "failed");
const describeFailures = (r: RunReport) =>
  failed(r)
    .map((f) => `${f.id}: ${f.reason}`)
    .join("\n");

/** Map with at most `limit` tasks in flight, so two single-process servers are not swamped. */
async function pool<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return out;
}

async function againstMutant(upstream: string, mutant: string, options: (url: string) => Promise<KitOptions> | KitOptions) {
  const proxy = startMutantProxy(upstream, mutant);
  try {
    return await runKit(await options(proxy.url));
  } finally {
    await proxy.stop();
  }
}

beforeAll(async () => {
  [serverA, serverB] = await Promise.all([
    startServer({ secret: SECRET, perMinute: 1, perDay: 30 }),
    startServer({ secret: SECRET, perMinute: 5, perDay: 3 }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([serverA?.stop(), serverB?.stop()]);
});

describe("conformance kit against the real server", () => {
  test("full profile with --secret passes on the default limits", async () => {
    const r = await runKit(fullA(serverA.url));
    expect(describeFailures(r)).toBe("");
    expect(r.results.filter((x) => x.outcome === "passed").length).toBeGreaterThan(30);
  });

  test("full profile with --secret and --limits-from-headers passes on 5/min, 3/day, reaching the daily quota", async () => {
    const r = await runKit(fullB(serverB.url));
    expect(describeFailures(r)).toBe("");
    expect(r.results.find((x) => x.id === "limits.daily-quota")?.outcome).toBe("passed");
  });

  test("core profile with only --token passes and stays within a budget of 3", async () => {
    const r = await runKit(await coreToken(serverA.url, `kill-baseline-${crypto.randomUUID()}`));
    expect(describeFailures(r)).toBe("");
    expect(r.meteredCallsSpent).toBeLessThanOrEqual(3);
    console.log(`core --token baseline: ${summaryLine(r)}`);
  });
});

describe("mutants", () => {
  test(`every one of the ${MUTANTS.length} mutants is killed with --secret (full profile, servers A and B)`, async () => {
    const rows = await pool(MUTANTS, 6, async (m) => {
      const [a, b] = await Promise.all([againstMutant(serverA.url, m.name, fullA), againstMutant(serverB.url, m.name, fullB)]);
      const killers = [...new Set([...failed(a), ...failed(b)].map((f) => f.id))];
      return { name: m.name, killers };
    });
    for (const row of rows)
      console.log(`  ${row.killers.length ? "killed" : "SURVIVED"}  ${row.name}  by ${row.killers.join(", ") || "-"}`);
    const killed = rows.filter((r) => r.killers.length > 0).length;
    console.log(`kill ratio, full profile with --secret: ${killed}/${rows.length}`);
    expect(rows.filter((r) => r.killers.length === 0).map((r) => r.name)).toEqual([]);
    expect(rows.length).toBeGreaterThanOrEqual(20);
  }, 150_000);

  test("kill ratio of the core profile with only --token (reported)", async () => {
    const rows = await pool(MUTANTS, 8, async (m) => {
      const r = await againstMutant(serverA.url, m.name, (url) => coreToken(url, `kill-core-${m.name}-${crypto.randomUUID()}`));
      return { name: m.name, killers: failed(r).map((f) => f.id) };
    });
    const survivors = rows.filter((r) => r.killers.length === 0).map((r) => r.name);
    const killed = rows.length - survivors.length;
    console.log(`kill ratio, core profile with only --token: ${killed}/${rows.length}; survivors: ${survivors.join(", ") || "none"}`);
    // Survivors are mutants only a secret-holder can reach (daily quota, minted expired tokens, rules only the full profile checks).
    expect(killed).toBeGreaterThan(rows.length / 2);
  }, 150_000);
});
