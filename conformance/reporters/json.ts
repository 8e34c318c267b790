/** Machine-readable report: one JSON document with every result and its evidence. */
import { summaryLine } from "../lib/runner.ts";
import type { RunReport } from "../lib/types.ts";
import { evidenceView } from "./evidence.ts";

export function jsonReport(report: RunReport): string {
  const count = (o: string) => report.results.filter((r) => r.outcome === o).length;
  const doc = {
    base_url: report.baseUrl,
    profile: report.profile,
    started_at: report.startedAt,
    duration_ms: report.ms,
    metered_calls_spent: report.meteredCallsSpent,
    budget: report.budget,
    ...(report.fuzz ? { fuzz: report.fuzz } : {}),
    summary: { passed: count("passed"), failed: count("failed"), skipped: count("skipped"), line: summaryLine(report) },
    results: report.results.map((r) => ({
      id: r.id,
      title: r.title,
      cites: r.cites,
      profile: r.profile,
      outcome: r.outcome,
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.findings ? { findings: r.findings } : {}),
      evidence: r.evidence.map(evidenceView),
      duration_ms: r.ms,
    })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}
