/**
 * The GitHub Actions example runs what .ci/run runs: every npm script it calls exists, it runs the
 * suite against the built binary, and k6 through load/ci-k6.ts with the k6 version the scripts were
 * last run under. It cannot be run here (no GitHub); this keeps it from drifting from the repo.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..");

test("the workflow example calls only npm scripts that exist and the same k6 step as .ci/run", () => {
  const workflow = Bun.YAML.parse(readFileSync(join(ROOT, ".github/workflows/ci.yml"), "utf8")) as {
    jobs: Record<string, { steps: { run?: string; uses?: string; with?: Record<string, unknown> }[] }>;
  };
  const scripts = Object.keys((JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: object }).scripts);
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  const runs = steps.flatMap((s) => (s.run ? [s.run] : []));
  const called = runs.flatMap((r) => [...r.matchAll(/npm (?:run )?([a-z:]+)/g)].map((m) => m[1]!)).filter((s) => s !== "ci");
  expect(called.filter((s) => !scripts.includes(s))).toEqual([]);
  expect(called).toEqual(expect.arrayContaining(["build", "typecheck", "lint", "test"]));
  const ci = readFileSync(join(ROOT, ".ci/run"), "utf8");
  const k6Step = "node_modules/.bin/bun load/ci-k6.ts";
  expect(ci).toContain(k6Step);
  expect(runs).toContain(k6Step);
  const k6 = steps.find((s) => s.uses?.startsWith("grafana/setup-k6-action"));
  expect(String(k6?.with?.["k6-version"])).toBe("0.48.0");
  expect(readFileSync(join(ROOT, "load/README.md"), "utf8")).toContain("k6 v0.48.0");
});
