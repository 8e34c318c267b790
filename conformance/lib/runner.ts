/** Runs checks in order against one target and collects results; never throws for a failing target. */
import { selectChecks, unknownIds } from "../checks/index.ts";
import { Context, HEALTH_PATH } from "./context.ts";
import { type CheckResult, Failure, type KitOptions, type RunReport, Skip, UsageError } from "./types.ts";

/** Run the kit. Throws UsageError for bad --only ids or an unreachable target; everything else is a result. */
export async function runKit(options: KitOptions): Promise<RunReport> {
  if (options.only) {
    const unknown = unknownIds(options.only);
    if (unknown.length) throw new UsageError(`--only: unknown check id(s): ${unknown.join(", ")} (see --list)`);
  }
  const checks = selectChecks(options.profile, options.only, options.fuzz);
  if (options.only && checks.length === 0) {
    throw new UsageError(`--only selects no check of profile ${options.profile} (fuzz.* checks need --fuzz or --profile fuzz)`);
  }
  const ctx = new Context(options);
  const started = Date.now();
  // Reachability first, so a wrong URL is a usage error (exit 2), not thirty failures.
  await ctx.client.request(HEALTH_PATH);
  ctx.client.log.length = 0;

  const results: CheckResult[] = [];
  for (const check of checks) {
    const t0 = Date.now();
    const base = { id: check.id, title: check.title, cites: check.cites, profile: check.profile };
    try {
      await check.run(ctx);
      results.push({ ...base, outcome: "passed", evidence: [], ms: Date.now() - t0 });
    } catch (err) {
      if (err instanceof Skip) results.push({ ...base, outcome: "skipped", reason: err.message, evidence: [], ms: Date.now() - t0 });
      else if (err instanceof Failure)
        results.push({
          ...base,
          outcome: "failed",
          reason: err.message,
          evidence: err.evidence,
          ...(err.findings ? { findings: err.findings } : {}),
          ms: Date.now() - t0,
        });
      else if (err instanceof UsageError) throw err;
      else
        results.push({ ...base, outcome: "failed", reason: `check crashed: ${(err as Error).message}`, evidence: [], ms: Date.now() - t0 });
    }
  }
  return {
    baseUrl: options.baseUrl,
    profile: options.profile,
    results,
    meteredCallsSpent: ctx.client.spent,
    budget: options.budget,
    startedAt: new Date(started).toISOString(),
    ms: Date.now() - started,
    ...(ctx.fuzzSummary ? { fuzz: ctx.fuzzSummary } : {}),
  };
}

/** `N passed, N failed, N skipped` — the last line of every text report. */
export function summaryLine(report: RunReport): string {
  const n = (o: string) => report.results.filter((r) => r.outcome === o).length;
  return `${n("passed")} passed, ${n("failed")} failed, ${n("skipped")} skipped`;
}

/** 0 when nothing failed, else 1. */
export function exitCode(report: RunReport): 0 | 1 {
  return report.results.some((r) => r.outcome === "failed") ? 1 : 0;
}
