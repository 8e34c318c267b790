/**
 * The kit against the mutants, shared by the kill test and the kill-ratio report (`ratios.ts`): the
 * option sets of each kind of run, and one run per mutant, kind and server, kept for the process.
 */
import { signJwt, userClaims } from "../lib/jwt.ts";
import { runKit } from "../lib/runner.ts";
import type { KitOptions, RunReport } from "../lib/types.ts";
import { MUTANTS } from "./catalog.ts";
import { startMutantProxy } from "./proxy.ts";
import { type RunningServer, startServer } from "./server-harness.ts";

/** Server A has the default limits; B a daily quota below its minute limit, so the quota is reached in seconds. */
export interface Servers {
  secret: string;
  a: RunningServer;
  b: RunningServer;
}

/** `db` gives each server its database file (see startServer); without it each starts on a fresh one. `bin`: a compiled server to run. */
export async function startServers(db?: () => string, bin?: string): Promise<Servers & { stop(): Promise<void> }> {
  const secret = `conformance-kill-${crypto.randomUUID()}`;
  const [a, b] = await Promise.all([
    startServer({ secret, perMinute: 1, perDay: 30, db: db?.(), bin }),
    startServer({ secret, perMinute: 5, perDay: 3, db: db?.(), bin }),
  ]);
  return { secret, a, b, stop: async () => void (await Promise.all([a.stop(), b.stop()])) };
}

const base = (baseUrl: string): KitOptions => ({
  baseUrl,
  budget: 300,
  slow: false,
  profile: "full",
  reporter: "text",
  limitsFromHeaders: false,
  timeoutMs: 30_000,
});
export const fullA = (url: string, secret: string): KitOptions => ({ ...base(url), secret });
export const fullB = (url: string, secret: string): KitOptions => ({ ...base(url), secret, limitsFromHeaders: true });
/** The fuzz profile with a fixed seed (the same cases every time) and few cases, so a sweep of the catalogue stays quick. */
export const FUZZ_SEED = 20261127;
export const FUZZ_CASES = 60;
const fuzzA = (url: string, secret: string): KitOptions => ({ ...base(url), secret, profile: "fuzz", seed: FUZZ_SEED, cases: FUZZ_CASES });
/** Core with only a token: what a user of a production deployment without the secret can run. */
export const coreToken = async (url: string, secret: string, user: string): Promise<KitOptions> => ({
  ...base(url),
  profile: "core",
  budget: 3,
  token: await signJwt(userClaims(user), secret),
});

export const failed = (r: RunReport) => r.results.filter((x) => x.outcome === "failed");

/** Map with at most `limit` tasks in flight, so two single-process servers are not swamped. */
export async function pool<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
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

export async function againstMutant(upstream: string, mutant: string, options: (url: string) => Promise<KitOptions> | KitOptions) {
  const proxy = startMutantProxy(upstream, mutant);
  try {
    return await runKit(await options(proxy.url));
  } finally {
    await proxy.stop();
  }
}

export type RunKind = "coreA" | "fullA" | "fullB" | "fuzzA";

/**
 * One run per mutant, kind and servers for the process: the kill test's assertions and the report
 * read the same runs. Only the option sets that are the same every time (a fresh user per case with
 * --secret, a fixed fuzz seed) are kept; --token runs are not.
 */
const runs = new WeakMap<Servers, Map<string, Promise<RunReport>>>();
export function memoAgainst(servers: Servers, mutant: string, kind: RunKind): Promise<RunReport> {
  let mine = runs.get(servers);
  if (!mine) runs.set(servers, (mine = new Map()));
  const key = `${mutant} ${kind}`;
  let run = mine.get(key);
  if (!run) {
    const { secret } = servers;
    const options = {
      coreA: (url: string) => ({ ...fullA(url, secret), profile: "core" as const }),
      fullA: (url: string) => fullA(url, secret),
      fullB: (url: string) => fullB(url, secret),
      fuzzA: (url: string) => fuzzA(url, secret),
    }[kind];
    run = againstMutant(kind === "fullB" ? servers.b.url : servers.a.url, mutant, options);
    mine.set(key, run);
  }
  return run;
}

/** Mutants the interface's words catch; the rest break only what the OpenAPI document declares. */
export const BEHAVIOURAL = MUTANTS.filter((m) => !m.documentOnly);
export const DOCUMENT_ONLY = MUTANTS.filter((m) => m.documentOnly);
