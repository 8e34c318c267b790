/** Human-readable report; the last line is the summary. */
import { summaryLine } from "../lib/runner.ts";
import type { RunReport } from "../lib/types.ts";
import { evidenceText } from "./evidence.ts";
import { findingText, fuzzSummaryLines } from "./fuzz.ts";

const MARK = { passed: "PASS", failed: "FAIL", skipped: "SKIP" } as const;

export function textReport(report: RunReport): string {
  const lines = [`graph-stats conformance: ${report.baseUrl} (profile ${report.profile})`, ""];
  for (const r of report.results) {
    lines.push(`${MARK[r.outcome]}  ${r.id}  ${r.title}  [${r.cites}]`);
    if (r.reason) lines.push(`      ${r.outcome === "skipped" ? "skipped" : "why"}: ${r.reason}`);
    for (const f of r.findings ?? []) lines.push(findingText(f));
    for (const ex of r.evidence) lines.push(evidenceText(ex));
  }
  if (report.fuzz) lines.push("", ...fuzzSummaryLines(report.fuzz));
  lines.push("", `metered calls spent: ${report.meteredCallsSpent} of budget ${report.budget}; ${report.ms} ms`);
  lines.push(summaryLine(report));
  return `${lines.join("\n")}\n`;
}
