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

/** The fuzz block of a text report: seed, cases per operation, and per operation what was sent and answered. */
export function fuzzSummaryLines(f: FuzzSummary): string[] {
  const lines = [`fuzz: seed ${f.seed} (rerun with --seed ${f.seed}); ${f.casesPerOperation} cases per operation and check`];
  if (f.document) lines.push(`  document: ${f.document}`);
  for (const o of f.operations) {
    const held = Object.entries(o.notSent).map(([why, n]) => `${n} not sent: ${why}`);
    const statuses = counts(o.statuses) || "none";
    lines.push(
      `  ${o.failed ? "FAIL" : "ok  "}  ${o.check} ${o.operation}: ${o.generated} generated, ${o.sent} sent; statuses ${statuses}${held.length ? `; ${held.join("; ")}` : ""}`,
    );
  }
  if (f.waitedMs > 0) lines.push(`  waited ${Math.round(f.waitedMs / 1000)} s for Retry-After`);
  return lines;
}
