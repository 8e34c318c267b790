/**
 * deploy/grafana/graph-stats.json charts what the rules compute: every recording rule of
 * deploy/prometheus/rules.yml is a panel query, and every query names only series that exist
 * (a recording rule, a series the server exports, or Prometheus's own `up`).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { DASHBOARD, RULES } from "../support/prometheus.ts";
import { createMetrics } from "../../src/http/metrics.ts";

const rules = readFileSync(RULES, "utf8");
const recorded = [...rules.matchAll(/^\s+- record: (\S+)$/gm)].map((m) => m[1]!);
const dashboard = JSON.parse(readFileSync(DASHBOARD, "utf8"));
const queries: string[] = dashboard.panels.flatMap((p: any) => p.targets.map((t: any) => t.expr));

test("every recording rule is charted", () => {
  expect(recorded.length).toBe(9);
  for (const name of recorded) expect({ name, charted: queries.some((q) => q.includes(name)) }).toEqual({ name, charted: true });
});

test("every series a panel queries is a recording rule, one the server exports, or up", async () => {
  const exported = new Set(
    [
      ...(
        await createMetrics({
          computeQueueDepth: () => 0,
          cacheBytes: () => 0,
          dbConnectionsInUse: () => 0,
          databaseUp: () => true,
          meterWriteFailing: () => false,
          admittedLimitBytes: 1,
          dbFilesystem: () => ({ availBytes: 1, sizeBytes: 2 }),
          dbServerConnections: { max: 100, open: async () => 1 },
          workerRestarts: () => 0,
        }).render()
      ).matchAll(/^# TYPE (\S+)/gm),
    ].map((m) => m[1]!),
  );
  const known = new Set([...recorded, ...exported, "up"]);
  // A series name is followed by a selector, a range, a bracket, a space or the end, and has an
  // underscore or a colon (label names in by/without have none; keywords are followed by "(").
  const names = queries.flatMap((q) =>
    [...q.matchAll(/(?<![\w:])[a-z_:][a-z0-9_:]*(?=[{[)\s]|$)/g)].map((m) => m[0]).filter((n) => n === "up" || /[_:]/.test(n)),
  );
  expect(names.length).toBeGreaterThanOrEqual(queries.length);
  expect(names.filter((n) => !known.has(n))).toEqual([]);
});
