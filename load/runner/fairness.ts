/**
 * The load scripts' core profile, proven fair and still sharp under the real k6: smoke, auth, demo and
 * limits against the second implementation (conformance/second-implementation/, Python) must pass, and
 * each mutant of runner/mutants.ts (the kit's proxy in front of it) must fail the script that guards what
 * it breaks. CI runs `FAIRNESS_RUNS` (load/ci-k6.ts); `bun load/runner/fairness.ts --matrix` runs every
 * script against every mutant and prints the kill table of load/README.md.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { startMutantProxy } from "../../conformance/mutants/proxy.ts";
import { type PyServer, startSecondImplementation } from "../../conformance/second-implementation/process.ts";
import { k6RunArgs } from "./k6.ts";
import { LOAD_MUTANTS, loadMutant } from "./mutants.ts";

const ROOT = resolve(import.meta.dir, "../..");

/** The scripts the core profile is proven on. */
export const FAIR_SCRIPTS = ["smoke", "auth", "demo", "limits"] as const;
export type FairScript = (typeof FAIR_SCRIPTS)[number];

/**
 * Short, bounded runs (a few seconds each past k6's start). Limits' bursts are a second apart, all
 * inside one minute window; the under-admission verdict needs a minute and is unit-tested instead.
 */
export const SHORT_ARGS: Record<FairScript, string[]> = {
  smoke: [],
  auth: ["-e", "RATE=20", "-e", "DURATION=3s"],
  demo: ["-e", "RATE=10", "-e", "HEALTH_RATE=2", "-e", "DURATION=3s", "-e", "VUS=5"],
  limits: ["-e", "VUS=4", "-e", "BURSTS=3", "-e", "PACE_S=1"],
};

/**
 * The two servers: A with a per-minute limit the day does not reach (RATE_LIMITED), B with a daily quota
 * below the minute's (DAILY_QUOTA_EXCEEDED within seconds).
 */
export const SERVERS = { a: { perMinute: 2, perDay: 1000 }, b: { perMinute: 5, perDay: 3 } } as const;

export interface FairRun {
  name: string;
  script: FairScript;
  server: keyof typeof SERVERS;
  /** A mutant of runner/mutants.ts between k6 and the server, or null. */
  mutant: string | null;
  /** The thresholds that must fail (a mutant run); none: the run must pass. */
  killers: string[];
}

const baseline = (script: FairScript, server: keyof typeof SERVERS = "a"): FairRun => ({
  name: `${script}${server === "b" ? "-daily" : ""}`,
  script,
  server,
  mutant: null,
  killers: [],
});
const kill = (script: FairScript, mutant: string, killers: string[]): FairRun => ({
  name: `${script}-x-${mutant}`,
  script,
  server: "a",
  mutant,
  killers,
});

/** What CI proves: each script passes, each mutant is killed by the check that guards what it breaks. */
export const FAIRNESS_RUNS: FairRun[] = [
  baseline("smoke"),
  baseline("auth"),
  baseline("demo"),
  baseline("limits"),
  baseline("limits", "b"),
  kill("limits", "over-admission", ["graphstats_over_admitted: count==0"]),
  kill("limits", "drop-retry-after", ["graphstats_header_problems: count==0"]),
  kill("limits", "429-codes-swapped", ["graphstats_header_problems: count==0"]),
  kill("limits", "drop-ratelimit-on-429", ["graphstats_header_problems: count==0"]),
  kill("smoke", "success-as-string", ["checks: rate==1", "graphstats_smoke_problems: count==0"]),
  kill("auth", "expired-accepted", ["graphstats_auth_admitted: count==0"]),
  kill("demo", "demo-demands-token", ["checks: rate>0.99", "http_req_failed: rate<0.01"]),
];

export interface Targets {
  secret: string;
  servers: Record<keyof typeof SERVERS, PyServer>;
  stop(): Promise<void>;
}

/** Starts servers A and B of the second implementation, on one secret. */
export async function startTargets(): Promise<Targets> {
  const secret = `load-fairness-${randomBytes(12).toString("hex")}`;
  const [a, b] = await Promise.all([
    startSecondImplementation({ secret, ...SERVERS.a }),
    startSecondImplementation({ secret, ...SERVERS.b }),
  ]);
  return { secret, servers: { a, b }, stop: async () => void (await Promise.all([a.stop(), b.stop()])) };
}

export interface RunResult {
  run: FairRun;
  code: number;
  /** The script's summary JSON (lib/summary.js `buildSummary`), null when k6 wrote none. */
  summary: { passed: boolean; failed_thresholds: string[]; metrics: Record<string, Record<string, number>> } | null;
  output: string;
  ms: number;
}

/** One k6 run of `run` (its mutant's proxy started for it alone), its summary read back. */
export async function runFair(k6: string, run: FairRun, targets: Targets, outDir: string): Promise<RunResult> {
  const upstream = targets.servers[run.server].url;
  const proxy = run.mutant ? startMutantProxy(upstream, loadMutant(run.mutant)) : null;
  const summaryFile = join(outDir, `${run.name}-summary.json`);
  const started = Date.now();
  try {
    const vars = { BASE_URL: proxy ? proxy.url : upstream, JWT_SECRET: targets.secret, PROFILE: "core", SUMMARY: summaryFile };
    const args = ["-q", "--no-color", "--no-usage-report", "--address", "", ...SHORT_ARGS[run.script]];
    const proc = Bun.spawn([k6, ...k6RunArgs(join(ROOT, "load", `${run.script}.js`), vars, args)], {
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    let summary: RunResult["summary"] = null;
    try {
      summary = JSON.parse(readFileSync(summaryFile, "utf8"));
    } catch {
      summary = null;
    }
    return { run, code, summary, output: `${out}${err}`, ms: Date.now() - started };
  } finally {
    await proxy?.stop();
  }
}

/** What is wrong with a result, or null: a baseline must pass; a mutant run must fail its killers. */
export function verdict(r: RunResult): string | null {
  const failed = r.summary?.failed_thresholds ?? [];
  if (r.run.killers.length === 0) {
    return r.code === 0 && r.summary?.passed ? null : `should pass but exited ${r.code}, failing ${failed.join(", ") || "no threshold"}`;
  }
  const missed = r.run.killers.filter((k) => !failed.includes(k));
  if (r.code !== 99) return `should fail its thresholds (k6 exit 99) but exited ${r.code}`;
  return missed.length === 0 ? null : `survived: ${missed.join(", ")} did not fail (failed: ${failed.join(", ") || "none"})`;
}

/** One line per run: requests, p95, what failed. */
export function resultLine(r: RunResult): string {
  const m = r.summary?.metrics ?? {};
  const reqs = m.http_reqs?.count ?? 0;
  const p95 = m.http_req_duration?.["p(95)"];
  const failed = r.summary?.failed_thresholds ?? [];
  const what = r.run.mutant ? `${r.run.script} vs ${r.run.mutant}` : `${r.run.script} vs server ${r.run.server.toUpperCase()}`;
  const outcome = failed.length ? `failed ${failed.join(", ")}` : "passed";
  return `${what}: ${outcome}; ${reqs} requests, p95 ${p95 === undefined ? "-" : p95.toFixed(1)} ms, ${(r.ms / 1000).toFixed(1)} s`;
}

/** Runs `runs` with at most `parallel` k6 processes at once, in order of the list. */
export async function runAll(k6: string, runs: FairRun[], targets: Targets, outDir: string, parallel = 2): Promise<RunResult[]> {
  const results: RunResult[] = new Array(runs.length);
  let next = 0;
  const worker = async () => {
    while (next < runs.length) {
      const i = next++;
      results[i] = await runFair(k6, runs[i]!, targets, outDir);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, runs.length) }, worker));
  return results;
}

/** Every script against every mutant: the kill table of load/README.md. */
export function matrixRuns(): FairRun[] {
  return LOAD_MUTANTS.flatMap((m) => FAIR_SCRIPTS.map((s) => kill(s, m.name, [])));
}

if (import.meta.main) {
  const { findK6, workspaceK6 } = await import("./k6.ts");
  const { mkdirSync } = await import("node:fs");
  const k6 = findK6(process.env, [workspaceK6(ROOT)]);
  if (!k6) {
    console.error("k6 not found ($K6, 'k6' on PATH)");
    process.exit(3);
  }
  const matrix = process.argv.includes("--matrix");
  const outDir = resolve(process.env.LOAD_OUT_DIR || join(ROOT, "load", "out", "fairness"));
  mkdirSync(outDir, { recursive: true });
  const targets = await startTargets();
  try {
    const runs = matrix ? matrixRuns() : FAIRNESS_RUNS;
    const results = await runAll(k6, runs, targets, outDir);
    for (const r of results) console.log(matrix ? resultLine(r) : `${verdict(r) ? "WRONG" : "ok   "} ${resultLine(r)}`);
    process.exitCode = matrix || results.every((r) => verdict(r) === null) ? 0 : 1;
  } finally {
    await targets.stop();
  }
}
