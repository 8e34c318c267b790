/**
 * The kill ratios of each profile over the catalogue, the table in conformance/README.md:
 * `npm run conformance:ratios` (about 40 s of CPU). The kill test asserts what must hold (every
 * mutant killed); this reports how much each profile kills on its own, which is a measurement, not
 * a rule, so the suite does not pay for it on every run.
 */
import type { Mutant } from "./catalog.ts";
import { MUTANTS } from "./catalog.ts";
import { againstMutant, coreToken, FUZZ_CASES, FUZZ_SEED, failed, memoAgainst, pool, type Servers, startServers } from "./runs.ts";

export interface RatioRow {
  name: string;
  core: boolean;
  full: boolean;
  fuzz: boolean;
  coreToken: boolean;
}

/** Every profile against each mutant: core, full (A and B), fuzz with --secret, and core with only a token. */
export async function killRatios(servers: Servers, mutants: readonly Mutant[]): Promise<RatioRow[]> {
  return pool([...mutants], 6, async (m) => {
    const [core, fullOnA, fullOnB, fuzz, token] = await Promise.all([
      memoAgainst(servers, m.name, "coreA"),
      memoAgainst(servers, m.name, "fullA"),
      memoAgainst(servers, m.name, "fullB"),
      memoAgainst(servers, m.name, "fuzzA"),
      againstMutant(servers.a.url, m.name, (url) => coreToken(url, servers.secret, `ratio-core-${m.name}-${crypto.randomUUID()}`)),
    ]);
    return {
      name: m.name,
      core: failed(core).length > 0,
      full: failed(fullOnA).length + failed(fullOnB).length > 0,
      fuzz: failed(fuzz).length > 0,
      coreToken: failed(token).length > 0,
    };
  });
}

const LABELS = {
  core: "core with --secret (A)",
  full: "full with --secret (A, and B with --limits-from-headers)",
  fuzz: `fuzz with --secret (A; seed ${FUZZ_SEED}, ${FUZZ_CASES} cases)`,
  coreToken: "core with only --token (A)",
} as const;

/** One line per profile: killed/total and the survivors by name. */
export function ratioLines(rows: readonly RatioRow[]): string[] {
  const lines = (Object.keys(LABELS) as (keyof typeof LABELS)[]).map((profile) => {
    const survivors = rows.filter((r) => !r[profile]).map((r) => r.name);
    return `kill ratio, ${LABELS[profile]}: ${rows.length - survivors.length}/${rows.length}; survivors: ${survivors.join(", ") || "none"}`;
  });
  lines.push(`kill ratio, full and fuzz together: ${rows.filter((r) => r.full || r.fuzz).length}/${rows.length}`);
  return lines;
}

if (import.meta.main) {
  const servers = await startServers();
  try {
    for (const line of ratioLines(await killRatios(servers, MUTANTS))) console.log(line);
  } finally {
    await servers.stop();
  }
}
