/**
 * Debian's prometheus package (promtool and prometheus) for the monitoring tests: where the
 * binaries are, and the one reason given when they are not (CI installs them, .ci/run).
 */
import { resolve } from "node:path";

export const PROMTOOL = Bun.which("promtool");
export const PROMETHEUS = Bun.which("prometheus");
export const PROMETHEUS_MISSING =
  "skipped: Debian's prometheus package is not installed (apt-get install prometheus gives promtool and prometheus)";

export const RULES = resolve(import.meta.dir, "../../deploy/prometheus/rules.yml");
export const RULES_TEST = resolve(import.meta.dir, "../../deploy/prometheus/rules.test.yml");
/** Every promtool unit-test file of rules.yml: each file has one evaluation interval, so the days-long freshness test has its own. */
export const RULE_TESTS = ["rules.test.yml", "capacity.test.yml", "freshness.test.yml"].map((f) =>
  resolve(import.meta.dir, "../../deploy/prometheus", f),
);
export const DASHBOARD = resolve(import.meta.dir, "../../deploy/grafana/graph-stats.json");
