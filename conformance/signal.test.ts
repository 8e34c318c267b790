/**
 * The signal-or-noise checks (checks/signal.ts) against the real server, which lists those
 * parameters in its document: they pass, and two mutants of the bootstrap's answer (percentiles
 * swapped, reliability a count instead of a share) each die to signal.bootstrap. Against the Python
 * second implementation, whose document lists none of them, every one is skipped saying so; with
 * only --token they skip too (each question needs a fresh user), spending nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sampleDb } from "../test/support/http/harness.ts";
import { signJwt, userClaims } from "./lib/jwt.ts";
import { runKit } from "./lib/runner.ts";
import type { KitOptions, RunReport } from "./lib/types.ts";
import type { Mutant, Relayed } from "./mutants/catalog.ts";
import { startMutantProxy } from "./mutants/proxy.ts";
import { type RunningServer, startServer } from "./mutants/server-harness.ts";
import { PYTHON, startSecondImplementation } from "./second-implementation/process.ts";

const SECRET = `signal-${crypto.randomUUID()}`;
const IDS = ["signal.spectrum", "signal.corr-matrix", "signal.bootstrap", "signal.bootstrap-seed"];

const options = (baseUrl: string, extra: Partial<KitOptions> = {}): KitOptions => ({
  baseUrl,
  secret: SECRET,
  budget: 300,
  slow: false,
  profile: "core",
  only: ["signal."],
  reporter: "text",
  limitsFromHeaders: false,
  timeoutMs: 30_000,
  ...extra,
});
const outcomes = (r: RunReport) => r.results.map((x) => `${x.id}:${x.outcome}`);

type Obj = Record<string, any>;
/** Rewrites every live 200's stocks or edges with `edit`. */
function bodyMutant(name: string, description: string, edit: (data: Obj) => void): Mutant {
  return {
    name,
    description,
    after(r: Relayed) {
      if (r.url.pathname !== "/v1/graph-stats/chart" || r.status !== 200 || typeof r.json !== "object" || r.json === null) return;
      edit((r.json as Obj).data ?? {});
      r.body = JSON.stringify(r.json);
    },
  };
}

const SWAPPED = bodyMutant("percentiles-swapped", "each <metric>_p05 and <metric>_p95 swapped", (d) => {
  for (const s of d.stocks ?? [])
    for (const m of d.metrics ?? []) if (`${m}_p05` in s) [s[`${m}_p05`], s[`${m}_p95`]] = [s[`${m}_p95`], s[`${m}_p05`]];
});
const COUNTED = bodyMutant(
  "reliability-as-count",
  "each edge's reliability is the count of replicates holding it, not their share",
  (d) => {
    const B = 20;
    for (const e of d.graph?.edge_list ?? []) if (typeof e.reliability === "number") e.reliability *= B;
  },
);

describe("against the real server", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ secret: SECRET, perMinute: 1, perDay: 30, db: sampleDb() });
  }, 60_000);
  afterAll(() => server?.stop());

  test("every signal check passes where the document lists the parameters", async () => {
    const r = await runKit(options(server.url));
    expect(r.results.filter((x) => x.outcome !== "passed").map((x) => `${x.id}: ${x.reason}`)).toEqual([]);
    expect(outcomes(r)).toEqual(IDS.map((id) => `${id}:passed`));
    // spectrum, corr-matrix, two bootstraps, two of the same seed.
    expect(r.meteredCallsSpent).toBe(6);
  }, 60_000);

  for (const mutant of [SWAPPED, COUNTED]) {
    test(`the ${mutant.name} mutant (${mutant.description}) dies to signal.bootstrap`, async () => {
      const proxy = startMutantProxy(server.url, mutant);
      try {
        const r = await runKit(options(proxy.url, { only: ["signal.bootstrap"] }));
        const result = r.results.find((x) => x.id === "signal.bootstrap");
        expect(result?.outcome).toBe("failed");
        expect(result?.reason).toMatch(
          mutant === SWAPPED ? /_p05 .* > .*_p95/ : /reliability is \d.*expected a share in \[0, 1\]|no share/,
        );
      } finally {
        await proxy.stop();
      }
    }, 60_000);
  }

  test("with only --token each is skipped, needing a fresh user, and spends no call", async () => {
    const token = await signJwt(userClaims(`signal-token-${crypto.randomUUID()}`), SECRET);
    const r = await runKit(options(server.url, { secret: undefined, token, budget: 3 }));
    expect(outcomes(r)).toEqual(IDS.map((id) => `${id}:skipped`));
    for (const x of r.results) expect(x.reason).toContain("needs a fresh user: pass --secret");
    expect(r.meteredCallsSpent).toBe(0);
  }, 60_000);
});

if (!PYTHON) {
  test.skip("second implementation: python3 is not on PATH, so server.py cannot start", () => {});
} else {
  test("against the second implementation, whose document lists none of them: each skipped, naming what it lacks", async () => {
    const py = await startSecondImplementation({ secret: SECRET, perMinute: 1, perDay: 30 });
    try {
      const r = await runKit(options(py.url));
      expect(outcomes(r)).toEqual(IDS.map((id) => `${id}:skipped`));
      for (const x of r.results)
        expect(x.reason).toMatch(/^an extension: http:\/\/.*\/openapi\.json does not list (spectrum|include_corr|bootstrap)/);
      expect(r.meteredCallsSpent).toBe(0);
    } finally {
      await py.stop();
    }
  }, 60_000);
}
