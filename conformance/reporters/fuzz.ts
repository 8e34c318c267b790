/** How reports show fuzzing: each finding with its seed and curl command, and what every operation got. */
import type { Finding, FuzzSummary } from "../lib/types.ts";

/** A finding as indented text lines: the case, why it fails, how to rerun it. */
export function findingText(f: Finding, indent = "      "): string {
  const lines = [
    `${indent}minimal case (${f.operation}, after ${f.casesRun} case(s) and ${f.shrinks} shrink(s)): ${f.case}`,
    ...f.problems.map((p) => `${indent}  - ${p}`),
    `${indent}rerun: --seed ${f.seed}    or:`,
    `${indent}  ${f.curl}`,
  ];
  if (f.tokenNote) lines.push(`${indent}  (${f.tokenNote})`);
  return lines.join("\n");
}

const counts = (r: Record<string, number>) =>
  Object.entries(r)
    .map(([k, n]) => `${k}×${n}`)
    .join(" ");

/**
 * The fuzz block of a text report: seed, cases per operation, and per operation what was sent and
 * answered. Each case is counted once (its first answer), so the statuses add up to the cases sent,
 * and those sent and not sent to the cases generated; a case sent again by the same user (whose
 * second answer is the 429 judged) is counted apart, with that answer's status.
 */
export function fuzzSummaryLines(f: FuzzSummary): string[] {
  const lines = [`fuzz: seed ${f.seed} (rerun with --seed ${f.seed}); ${f.casesPerOperation} cases per operation and check`];
  if (f.document) lines.push(`  document: ${f.document}`);
  for (const o of f.operations) {
    const parts = [`${o.generated} generated, ${o.sent} sent`, `statuses ${counts(o.statuses) || "none"}`];
    if (o.again.sent > 0) parts.push(`${o.again.sent} of them sent again by the same user: ${counts(o.again.statuses)}`);
    for (const [why, n] of Object.entries(o.notSent)) parts.push(`${n} not sent: ${why}`);
    lines.push(`  ${o.failed ? "FAIL" : "ok  "}  ${o.check} ${o.operation}: ${parts.join("; ")}`);
  }
  if (f.waitedMs > 0) lines.push(`  waited ${Math.round(f.waitedMs / 1000)} s for Retry-After`);
  return lines;
}
