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
/** The fuzz profile with a fixed seed (the same cases every time) and few cases, so the sweep of the catalogue stays quick. */
const FUZZ_SEED = 20261127;
const fuzzA = (url: string): KitOptions => ({ ...base(url), secret: SECRET, profile: "fuzz", seed: FUZZ_SEED, cases: 40 });
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

/**
 * One run per mutant, profile and server for the whole file: the catalogue's ratios below read the
 * same runs the kill tests judged (full on A and B, fuzz and full of the document-only ones)
 * instead of running each again. Only the option sets that are the same every time (a fresh user
 * per case with --secret, a fixed fuzz seed) are kept; --token runs are not.
 */
const runs = new Map<string, Promise<RunReport>>();
function memoAgainst(server: RunningServer, mutant: string, kind: "coreA" | "fullA" | "fullB" | "fuzzA"): Promise<RunReport> {
  const key = `${mutant} ${kind}`;
  let run = runs.get(key);
  if (!run) {
    const options = { coreA: (url: string) => ({ ...fullA(url), profile: "core" as const }), fullA, fullB, fuzzA }[kind];
    run = againstMutant(server.url, mutant, options);
    runs.set(key, run);
  }
  return run;
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

/** Mutants the interface's words catch; the rest break only what the OpenAPI document declares. */
const BEHAVIOURAL = MUTANTS.filter((m) => !m.documentOnly);
const DOCUMENT_ONLY = MUTANTS.filter((m) => m.documentOnly);

describe("mutants", () => {
  test(`every one of the ${BEHAVIOURAL.length} behavioural mutants is killed with --secret (full profile, servers A and B)`, async () => {
    const rows = await pool(BEHAVIOURAL, 6, async (m) => {
      const [a, b] = await Promise.all([memoAgainst(serverA, m.name, "fullA"), memoAgainst(serverB, m.name, "fullB")]);
      const killers = [...new Set([...failed(a), ...failed(b)].map((f) => f.id))];
      return { name: m.name, killers };
    });
    for (const row of rows)
      console.log(`  ${row.killers.length ? "killed" : "SURVIVED"}  ${row.name}  by ${row.killers.join(", ") || "-"}`);
    const killed = rows.filter((r) => r.killers.length > 0).length;
    console.log(
      `kill ratio, full profile with --secret: ${killed}/${rows.length} behavioural (+0/${DOCUMENT_ONLY.length} document-only, below)`,
    );
    expect(rows.filter((r) => r.killers.length === 0).map((r) => r.name)).toEqual([]);
    expect(rows.length).toBeGreaterThanOrEqual(20);
  }, 150_000);

  test(`the fuzz profile kills each of the ${DOCUMENT_ONLY.length} document-only mutants, which core and full do not`, async () => {
    const rows = await pool(DOCUMENT_ONLY, 5, async (m) => {
      const [fuzz, full] = await Promise.all([memoAgainst(serverA, m.name, "fuzzA"), memoAgainst(serverA, m.name, "fullA")]);
      return { name: m.name, fuzz: failed(fuzz), full: failed(full).map((f) => f.id) };
    });
    for (const row of rows) {
      const f = row.fuzz[0]?.findings?.[0];
      console.log(`  ${row.fuzz.length ? "killed" : "SURVIVED"}  ${row.name}  full: ${row.full.join(", ") || "survives"}`);
      if (f) console.log(`      ${f.case}\n      ${f.problems[0]}\n      ${f.curl}`);
    }
    expect(rows.filter((r) => r.fuzz.length === 0).map((r) => r.name)).toEqual([]);
    // Each is reported with a seed and a ready-to-run curl, its token redacted.
    for (const row of rows) expect(row.fuzz[0]!.findings![0]!.curl).toStartWith("curl ");
    expect(DOCUMENT_ONLY.length).toBeGreaterThanOrEqual(4);
  }, 150_000);

  test("kill ratios of core, full and fuzz with --secret over the whole catalogue (reported)", async () => {
    const rows = await pool(MUTANTS, 6, async (m) => {
      const [core, fullOnA, fullOnB, fuzz] = await Promise.all([
        memoAgainst(serverA, m.name, "coreA"),
        memoAgainst(serverA, m.name, "fullA"),
        memoAgainst(serverB, m.name, "fullB"),
        memoAgainst(serverA, m.name, "fuzzA"),
      ]);
      return {
        name: m.name,
        core: failed(core).length > 0,
        full: failed(fullOnA).length + failed(fullOnB).length > 0,
        fuzz: failed(fuzz).length > 0,
      };
    });
    for (const profile of ["core", "full", "fuzz"] as const) {
      const survivors = rows.filter((r) => !r[profile]).map((r) => r.name);
      console.log(
        `kill ratio, ${profile} with --secret: ${rows.length - survivors.length}/${rows.length}; survivors: ${survivors.join(", ") || "none"}`,
      );
    }
    const either = rows.filter((r) => r.full || r.fuzz).length;
    console.log(`kill ratio, full and fuzz together: ${either}/${rows.length}`);
    // What the document declares, the fuzz profile catches; together the profiles leave nothing alive.
    expect(rows.filter((r) => DOCUMENT_ONLY.some((m) => m.name === r.name) && !r.fuzz).map((r) => r.name)).toEqual([]);
    expect(either).toBe(rows.length);
  }, 200_000);

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
