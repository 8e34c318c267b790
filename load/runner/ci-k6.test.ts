// The CI k6 step (load/ci-k6.ts) as a subprocess: without k6 it says so and passes; with a stand-in k6
// it runs smoke, auth, limits and limits again on the same tokens (limits over both instances), and any
// failing run fails the step.
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
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

  test("it runs the four runs against one server, the second limits run on the same tokens, and fails when one fails", async () => {
    const log = join(work, "calls");
    const fake = join(work, "fake-k6");
    // Records each call's arguments; "fails" auth.js the way k6 does when a threshold is crossed.
    writeFileSync(
      fake,
      `#!/bin/sh
printf '%s\\n' "$@" >> "${log}"
echo --- >> "${log}"
case "$*" in *auth.js) exit 99;; esac
exit 0
`,
    );
    chmodSync(fake, 0o755);
    const out = join(work, "out");
    const r = await ciStep({ ...process.env, K6: fake, LOAD_OUT_DIR: out });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("k6: auth FAILED (k6 exit 99)");
    expect(r.stdout).toContain("k6: 3 of 4 runs passed; failed: auth");

    const calls = readFileSync(log, "utf8")
      .split("---\n")
      .filter(Boolean)
      .map((c) => c.trim().split("\n"));
    expect(calls.map((c) => c.at(-1)!.slice(ROOT.length + 1))).toEqual([
      "load/smoke.js",
      "load/auth.js",
      "load/limits.js",
      "load/limits.js",
    ]);
    const vars = calls.map((c) => envArgs(c));
    expect(new Set(vars.map((v) => v.BASE_URL)).size).toBe(1);
    // limits spreads over both instances; smoke and auth target the first only.
    expect(vars.map((v) => v.BASE_URLS?.split(",").length ?? 0)).toEqual([0, 0, 2, 2]);
    expect(vars[2].BASE_URLS!.split(",")[0]).toBe(vars[2].BASE_URL);
    expect(vars[3].TOKENS).toBe(vars[2].TOKENS);
    expect(vars.map((v) => v.SUMMARY)).toEqual(["smoke", "auth", "limits", "limits-again"].map((n) => join(out, `${n}-summary.json`)));
    expect(calls.every((c) => c.includes("--address") && c[c.indexOf("--address") + 1] === "")).toBe(true);
  }, 60_000);
});
