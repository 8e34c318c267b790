/**
 * deploy/prometheus/rules.yml through the real promtool: the rules parse, and the unit tests
 * (rules.test.yml, capacity.test.yml, freshness.test.yml) see every alert fire and stay quiet over
 * series shaped like our /metrics output.
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMetrics } from "../../src/http/metrics.ts";
import { PROMETHEUS_MISSING, PROMTOOL, RULE_TESTS, RULES, RULES_TEST } from "../support/prometheus.ts";

function run(...args: string[]) {
  const p = Bun.spawnSync([PROMTOOL!, ...args], { stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, out: `${p.stdout.toString()}${p.stderr.toString()}` };
}

/** The alert names rules.yml declares. */
const alerts = [...readFileSync(RULES, "utf8").matchAll(/^\s+- alert: (\w+)$/gm)].map((m) => m[1]!);

describe.skipIf(!PROMTOOL)(PROMTOOL ? "promtool over deploy/prometheus" : `promtool over deploy/prometheus (${PROMETHEUS_MISSING})`, () => {
  test("promtool check rules: the file parses and every expression is valid PromQL", () => {
    const r = run("check", "rules", RULES);
    expect(r.out).toContain("SUCCESS: 26 rules found");
    expect(r.code).toBe(0);
  });

  test("promtool test rules: every unit test passes", () => {
    const r = run("test", "rules", ...RULE_TESTS);
    expect(r.out.match(/SUCCESS/g)).toHaveLength(RULE_TESTS.length);
    expect(r.code).toBe(0);
    // About 2 s of CPU; more on a loaded machine.
  }, 30_000);

  test("every alert has a firing and a not-firing case in the unit tests", () => {
    const tests = RULE_TESTS.map((f) => readFileSync(f, "utf8")).join("\n");
    expect(alerts.length).toBe(17);
    for (const name of alerts) {
      const cases = [...tests.matchAll(new RegExp(`alertname: ${name}\\n\\s+exp_alerts:(.*)`, "g"))].map((m) => m[1]!.trim());
      expect({ name, quiet: cases.includes("[]") }).toEqual({ name, quiet: true });
      expect({ name, fires: cases.includes("") }).toEqual({ name, fires: true });
    }
  });

  test("a wrong expectation fails: promtool's verdict is read, not assumed", () => {
    const dir = mkdtempSync(join(tmpdir(), "gs-promtool-"));
    try {
      copyFileSync(RULES, join(dir, "rules.yml"));
      const tests = readFileSync(RULES_TEST, "utf8");
      expect(tests).toContain("value: 0.2\n");
      writeFileSync(join(dir, "rules.test.yml"), tests.replace("value: 0.2\n", "value: 0.3\n"));
      const r = run("test", "rules", join(dir, "rules.test.yml"));
      expect(r.out).toContain("FAILED");
      expect(r.code).not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test("every series the rules read is one /metrics exports (with every source present) or a recording rule", async () => {
  const text = readFileSync(RULES, "utf8");
  const expressions = text
    .split("\n")
    .filter((l) => !/^\s*(#|summary:|description:)/.test(l))
    .join("\n");
  const read = new Set([...expressions.matchAll(/(?<![\w:])graphstats_[a-z0-9_]+/g)].map((m) => m[0].replace(/_(bucket|count|sum)$/, "")));
  const recorded = new Set([...text.matchAll(/^\s+- record: (\S+)$/gm)].map((m) => m[1]!));
  const scrape = await createMetrics({
    computeQueueDepth: () => 0,
    cacheBytes: () => 0,
    dbConnectionsInUse: () => 0,
    databaseUp: () => true,
    meterWriteFailing: () => false,
    lastBars: async () => [{ universe: "u", interval: "1d", ts: 0 }],
    admittedLimitBytes: 1,
    dbFilesystem: () => ({ availBytes: 1, sizeBytes: 2 }),
    dbServerConnections: { max: 100, open: async () => 1 },
    workerRestarts: () => 0,
  }).render();
  const exported = new Set([...scrape.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]!));
  expect(read.size).toBeGreaterThanOrEqual(15);
  expect([...read].filter((name) => !exported.has(name) && !recorded.has(name))).toEqual([]);
});
