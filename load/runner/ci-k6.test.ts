// The CI k6 step (load/ci-k6.ts) as a subprocess: without k6 it says so and passes; with a stand-in k6
// it runs smoke, auth, limits and limits again on the same tokens (limits over both instances) in the full
// profile, then the core profile against the second implementation and its mutants, and any run that
// does not go as it must fails the step.
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { FAIRNESS_RUNS } from "./fairness.ts";
import { envArgs } from "./k6.ts";

const ROOT = resolve(import.meta.dir, "../..");
const work = mkdtempSync(join(tmpdir(), "gs-ci-k6-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function ciStep(env: Record<string, string | undefined>, root = ROOT) {
  const proc = Bun.spawn([process.execPath, join(root, "load", "ci-k6.ts")], { cwd: root, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

describe("ci-k6", () => {
  test("without any k6 it says the scripts were not run and exits 0", async () => {
    const empty = join(work, "empty");
    mkdirSync(empty, { recursive: true });
    // A copy of load/ with no workspace k6 beside it.
    const lone = join(work, "lone");
    cpSync(join(ROOT, "load"), join(lone, "load"), { recursive: true });
    const r = await ciStep({ PATH: empty, HOME: process.env.HOME }, lone);
    expect({ code: r.code, stdout: r.stdout }).toEqual({
      code: 0,
      stdout: expect.stringContaining("k6: not found ($K6, 'k6' on PATH): the load scripts were NOT run."),
    });
  });

  test("it runs the four full runs against one server, then the core runs, and fails when one does not go as it must", async () => {
    const log = join(work, "calls");
    const fake = join(work, "fake-k6");
    // Records each call's arguments (in one write: the core runs go two at a time) and writes a passing
    // summary; "fails" the full profile's auth.js the way k6 does when a threshold is crossed.
    writeFileSync(
      fake,
      `#!/bin/sh
printf '%s\\n' "$@" --- >> "${log}"
for a in "$@"; do case "$a" in SUMMARY=*) s="\${a#SUMMARY=}";; esac; done
echo '{"passed":true,"failed_thresholds":[],"metrics":{}}' > "$s"
case "$*" in *PROFILE=full*auth.js) exit 99;; esac
exit 0
`,
    );
    chmodSync(fake, 0o755);
    const out = join(work, "out");
    const r = await ciStep({ ...process.env, K6: fake, LOAD_OUT_DIR: out });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("k6: auth FAILED (k6 exit 99)");
    expect(r.stdout).toContain("k6: 3 of 4 runs passed; failed: auth");
    // A k6 that finds nothing passes every baseline and kills no mutant.
    const baselines = FAIRNESS_RUNS.filter((f) => f.killers.length === 0).length;
    expect(r.stdout).toContain(`k6: ${baselines} of ${FAIRNESS_RUNS.length} core runs went as they must`);
    expect(r.stdout).toContain("k6: WRONG limits-x-over-admission");

    const calls = readFileSync(log, "utf8")
      .split("---\n")
      .filter(Boolean)
      .map((c) => c.trim().split("\n"));
    const full = calls.filter((c) => envArgs(c).PROFILE === "full");
    const core = calls.filter((c) => envArgs(c).PROFILE === "core");
    expect(full.length + core.length).toBe(calls.length);
    expect(core.map((c) => `${envArgs(c).SUMMARY}`).sort()).toEqual(FAIRNESS_RUNS.map((f) => join(out, `${f.name}-summary.json`)).sort());
    // The core runs target the second implementation (or a mutant's proxy in front of it), never ours.
    expect(core.some((c) => envArgs(c).BASE_URL === envArgs(full[0]!).BASE_URL)).toBe(false);
    expect(full.map((c) => c.at(-1)!.slice(ROOT.length + 1))).toEqual([
      "load/smoke.js",
      "load/auth.js",
      "load/limits.js",
      "load/limits.js",
    ]);
    const vars = full.map((c) => envArgs(c));
    expect(new Set(vars.map((v) => v.BASE_URL)).size).toBe(1);
    // limits spreads over both instances; smoke and auth target the first only.
    expect(vars.map((v) => v.BASE_URLS?.split(",").length ?? 0)).toEqual([0, 0, 2, 2]);
    expect(vars[2].BASE_URLS!.split(",")[0]).toBe(vars[2].BASE_URL);
    expect(vars[3].TOKENS).toBe(vars[2].TOKENS);
    expect(vars.map((v) => v.SUMMARY)).toEqual(["smoke", "auth", "limits", "limits-again"].map((n) => join(out, `${n}-summary.json`)));
    expect(calls.every((c) => c.includes("--address") && c[c.indexOf("--address") + 1] === "")).toBe(true);
  }, 60_000);
});
