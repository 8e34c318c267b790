/**
 * Proves the kit: it passes against the real server and kills every mutant. Two real servers run:
 * A with the default limits (1/min, 30/day) and B with a daily quota below the minute limit (5/min, 3/day)
 * so the daily quota is reached in seconds. Each profile's kill ratio over the whole catalogue is a
 * report, `npm run conformance:ratios` (ratios.ts); here it runs on two mutants.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { serverBinary } from "../../test/support/binary.ts";
import { sampleDb } from "../../test/support/http/harness.ts";
import { runKit, summaryLine } from "../lib/runner.ts";
import type { RunReport } from "../lib/types.ts";
import { MUTANTS } from "./catalog.ts";
import { killRatios, ratioLines } from "./ratios.ts";
import {
  againstMutant,
  BEHAVIOURAL,
  coreToken,
  DOCUMENT_ONLY,
  failed,
  fullA,
  fullB,
  memoAgainst,
  pool,
  type Servers,
  startServers,
} from "./runs.ts";

let servers: Servers & { stop(): Promise<void> };

const describeFailures = (r: RunReport) =>
  failed(r)
    .map((f) => `${f.id}: ${f.reason}`)
    .join("\n");

beforeAll(async () => {
  servers = await startServers(() => sampleDb(), await serverBinary());
}, 60_000);

afterAll(async () => {
  await servers?.stop();
});

describe("conformance kit against the real server", () => {
  test("full profile with --secret passes on the default limits", async () => {
    const r = await runKit(fullA(servers.a.url, servers.secret));
    expect(describeFailures(r)).toBe("");
    expect(r.results.filter((x) => x.outcome === "passed").length).toBeGreaterThan(30);
  });

  test("full profile with --secret and --limits-from-headers passes on 5/min, 3/day, reaching the daily quota", async () => {
    const r = await runKit(fullB(servers.b.url, servers.secret));
    expect(describeFailures(r)).toBe("");
    expect(r.results.find((x) => x.id === "limits.daily-quota")?.outcome).toBe("passed");
  });

  test("core profile with only --token passes and stays within a budget of 3", async () => {
    const r = await runKit(await coreToken(servers.a.url, servers.secret, `kill-baseline-${crypto.randomUUID()}`));
    expect(describeFailures(r)).toBe("");
    expect(r.meteredCallsSpent).toBeLessThanOrEqual(3);
    console.log(`core --token baseline: ${summaryLine(r)}`);
  });
});

describe("mutants", () => {
  test(`every one of the ${BEHAVIOURAL.length} behavioural mutants is killed with --secret (full profile, servers A and B)`, async () => {
    // Server B (its daily quota reached in seconds) is run only for the mutants A leaves alive.
    const rows = await pool(BEHAVIOURAL, 6, async (m) => {
      for (const kind of ["fullA", "fullB"] as const) {
        const killers = failed(await memoAgainst(servers, m.name, kind)).map((f) => f.id);
        if (killers.length) return { name: m.name, killers, on: kind === "fullA" ? "A" : "B" };
      }
      return { name: m.name, killers: [], on: "-" };
    });
    for (const row of rows)
      console.log(`  ${row.killers.length ? "killed" : "SURVIVED"}  ${row.name}  on ${row.on} by ${row.killers.join(", ") || "-"}`);
    const killed = rows.filter((r) => r.killers.length > 0).length;
    console.log(
      `kill ratio, full profile with --secret: ${killed}/${rows.length} behavioural (+0/${DOCUMENT_ONLY.length} document-only, below)`,
    );
    expect(rows.filter((r) => r.killers.length === 0).map((r) => r.name)).toEqual([]);
    expect(rows.length).toBeGreaterThanOrEqual(20);
  }, 150_000);

  test(`the fuzz profile kills each of the ${DOCUMENT_ONLY.length} document-only mutants, which full does not`, async () => {
    const rows = await pool(DOCUMENT_ONLY, 5, async (m) => {
      const [fuzz, fullOnA, fullOnB] = await Promise.all([
        memoAgainst(servers, m.name, "fuzzA"),
        memoAgainst(servers, m.name, "fullA"),
        memoAgainst(servers, m.name, "fullB"),
      ]);
      return { name: m.name, fuzz: failed(fuzz), full: [...failed(fullOnA), ...failed(fullOnB)].map((f) => f.id) };
    });
    for (const row of rows) {
      const f = row.fuzz[0]?.findings?.[0];
      console.log(`  ${row.fuzz.length ? "killed" : "SURVIVED"}  ${row.name}  full: ${row.full.join(", ") || "survives"}`);
      if (f) console.log(`      ${f.case}\n      ${f.problems[0]}\n      ${f.curl}`);
    }
    expect(rows.filter((r) => r.fuzz.length === 0).map((r) => r.name)).toEqual([]);
    // Document-only means what docs/api.md's checks do not look at: full passes against each.
    expect(rows.filter((r) => r.full.length > 0).map((r) => r.name)).toEqual([]);
    // Each is reported with a seed and a ready-to-run curl, its token redacted.
    for (const row of rows) expect(row.fuzz[0]!.findings![0]!.curl).toStartWith("curl ");
    expect(DOCUMENT_ONLY.length).toBeGreaterThanOrEqual(4);
  }, 150_000);

  test("the core profile with only --token kills more than half of the catalogue", async () => {
    const rows = await pool(MUTANTS, 8, async (m) => {
      const r = await againstMutant(servers.a.url, m.name, (url) =>
        coreToken(url, servers.secret, `kill-core-${m.name}-${crypto.randomUUID()}`),
      );
      return { name: m.name, killers: failed(r).map((f) => f.id) };
    });
    const survivors = rows.filter((r) => r.killers.length === 0).map((r) => r.name);
    const killed = rows.length - survivors.length;
    console.log(`kill ratio, core profile with only --token: ${killed}/${rows.length}; survivors: ${survivors.join(", ") || "none"}`);
    // Survivors are mutants only a secret-holder can reach (daily quota, minted expired tokens, rules only the full profile checks).
    expect(killed).toBeGreaterThan(rows.length / 2);
  }, 150_000);

  test("the kill-ratio report runs every profile against each mutant: on a behavioural and a document-only one", async () => {
    // refusal-counted: only full checks that a 429 is not counted; unknown-parameter-422: only fuzz reads the declared statuses.
    const two = MUTANTS.filter((m) => m.name === "refusal-counted" || m.name === "unknown-parameter-422");
    const rows = await killRatios(servers, two);
    expect(rows).toEqual([
      { name: "refusal-counted", core: false, full: true, fuzz: false, coreToken: false },
      { name: "unknown-parameter-422", core: false, full: false, fuzz: true, coreToken: false },
    ]);
    const lines = ratioLines(rows);
    expect(lines[0]).toBe("kill ratio, core with --secret (A): 0/2; survivors: refusal-counted, unknown-parameter-422");
    expect(lines.at(-1)).toBe("kill ratio, full and fuzz together: 2/2");
  }, 60_000);
});
