/** JUnit XML for CI dashboards: one testcase per check, failures with evidence, skips with reasons. */
import { summaryLine } from "../lib/runner.ts";
import type { RunReport } from "../lib/types.ts";
import { evidenceText } from "./evidence.ts";
import { findingText, fuzzSummaryLines } from "./fuzz.ts";

/** Escape text for XML attributes and content; drops characters XML 1.0 forbids. */
export function xmlEscape(s: string): string {
  return s
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** The seed and cases per operation as properties, so a CI run's rerun command is in its XML. */
function fuzzProperties(report: RunReport): string {
  if (!report.fuzz) return "";
  const f = report.fuzz;
  return `<property name="fuzz_seed" value="${f.seed}"/><property name="fuzz_cases_per_operation" value="${f.casesPerOperation}"/><property name="fuzz" value="${xmlEscape(fuzzSummaryLines(f).join("\n"))}"/>`;
}

export function junitReport(report: RunReport): string {
  const count = (o: string) => report.results.filter((r) => r.outcome === o).length;
  const cases = report.results.map((r) => {
    const open = `  <testcase classname="conformance.${xmlEscape(r.profile)}" name="${xmlEscape(r.id)}" time="${(r.ms / 1000).toFixed(3)}"`;
    if (r.outcome === "passed") return `${open}/>`;
    if (r.outcome === "skipped") return `${open}>\n    <skipped message="${xmlEscape(r.reason ?? "")}"/>\n  </testcase>`;
    const detail = [
      `${r.title} [${r.cites}]`,
      ...(r.findings ?? []).map((f) => findingText(f, "  ")),
      ...r.evidence.map((e) => evidenceText(e, "  ")),
    ].join("\n");
    return `${open}>\n    <failure message="${xmlEscape(r.reason ?? "")}">${xmlEscape(detail)}</failure>\n  </testcase>`;
  });
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuite name="graph-stats-conformance" tests="${report.results.length}" failures="${count("failed")}" skipped="${count("skipped")}" errors="0" time="${(report.ms / 1000).toFixed(3)}" timestamp="${report.startedAt}">`,
    `  <properties><property name="base_url" value="${xmlEscape(report.baseUrl)}"/><property name="summary" value="${xmlEscape(summaryLine(report))}"/>${fuzzProperties(report)}</properties>`,
    ...cases,
    `</testsuite>`,
    "",
  ].join("\n");
}
