/**
 * CI's real-k6 step (`.ci/run`): when a k6 is found ($K6, `k6` on PATH, or a workspace k6), starts the
 * built graph-stats twice on one temporary database and runs smoke and auth against the first instance
 * and limits over both (each burst reaches both; the limiter is shared), for about ten seconds each,
 * then limits again with the same tokens, whose minute windows the first run has just filled: all in the
 * `full` profile. Then the `core` profile's proof (runner/fairness.ts): smoke, auth, demo and limits pass
 * against the second implementation (Python), and each mutant in front of it fails the script that guards
 * what it breaks.
 * Exit 0 when every run went as it must, or when no k6 was found (said plainly); 1 otherwise.
 * Summaries go to LOAD_OUT_DIR (default load/out/ci/).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import type { Targets } from "./runner/fairness.ts";
import { findK6, k6RunArgs, workspaceK6 } from "./runner/k6.ts";
import { graphStatsCommand, mintTokens } from "./runner/server.ts";
import { startInstances, type RunningInstances } from "./runner/instances.ts";

const ROOT = resolve(import.meta.dir, "..");

/** Server processes on the one database; the runs marked `multi` spread their load over all of them. */
export const CI_INSTANCES = 2;

/** The runs, in order; `limits-again` reuses the tokens `limits` used a moment earlier. */
export const CI_RUNS: { name: string; script: string; args: string[]; multi: boolean }[] = [
  { name: "smoke", script: "smoke", args: [], multi: false },
  { name: "auth", script: "auth", args: ["-e", "DURATION=10s", "-e", "RATE=20"], multi: false },
  { name: "limits", script: "limits", args: ["-e", "VUS=10", "-e", "BURSTS=3", "-e", "PACE_S=5"], multi: true },
  { name: "limits-again", script: "limits", args: ["-e", "VUS=10", "-e", "BURSTS=3", "-e", "PACE_S=5"], multi: true },
];

async function main(): Promise<number> {
  const k6 = findK6(process.env, [workspaceK6(ROOT)]);
  if (!k6) {
    console.log("k6: not found ($K6, 'k6' on PATH): the load scripts were NOT run. Install k6 0.46 or later to run them.");
    return 0;
  }
  const outDir = resolve(process.env.LOAD_OUT_DIR || join(ROOT, "load", "out", "ci"));
  mkdirSync(outDir, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), "graph-stats-ci-k6-"));
  const secret = randomBytes(24).toString("hex");
  const { command, note } = graphStatsCommand(ROOT);
  if (note) console.log(`k6: ${note}`);
  let server: RunningInstances | null = null;
  try {
    const dbPath = join(dir, "ci.sqlite");
    server = await startInstances(CI_INSTANCES, { command, dbPath, secret, ratePerMinute: 2, ratePerDay: 1000 });
    const tokensPath = join(dir, "tokens.json");
    writeFileSync(tokensPath, await mintTokens(command, dbPath, secret, 20, "ci-"));
    console.log(`k6: ${k6} against ${command[0]} at ${server.baseUrls.join(", ")} (one database); summaries in ${outDir}`);
    const failed: string[] = [];
    for (const run of CI_RUNS) {
      const started = Date.now();
      // No REST API server (--address ""): nothing else is bound, so runs in parallel CI jobs cannot collide.
      const vars = {
        BASE_URL: server.baseUrls[0]!,
        ...(run.multi ? { BASE_URLS: server.baseUrls.join(",") } : {}),
        TOKENS: tokensPath,
        JWT_SECRET: secret,
        PROFILE: "full",
        SUMMARY: join(outDir, `${run.name}-summary.json`),
      };
      const proc = Bun.spawn(
        [
          k6,
          ...k6RunArgs(join(ROOT, "load", `${run.script}.js`), vars, [
            "-q",
            "--no-color",
            "--no-usage-report",
            "--address",
            "",
            ...run.args,
          ]),
        ],
        { stdio: ["ignore", "inherit", "inherit"] },
      );
      const code = await proc.exited;
      console.log(
        `k6: ${run.name} ${code === 0 ? "passed" : `FAILED (k6 exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      if (code !== 0) failed.push(run.name);
    }
    console.log(
      `k6: ${CI_RUNS.length - failed.length} of ${CI_RUNS.length} runs passed${failed.length ? `; failed: ${failed.join(", ")}` : ""}`,
    );
    await server.stop();
    server = null;
    const fair = await fairness(k6, outDir);
    return failed.length === 0 && fair ? 0 : 1;
  } catch (err) {
    console.log(`k6: ${(err as Error).message}`);
    return 1;
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The core profile against the second implementation and its mutants; true when every run went as it must. */
async function fairness(k6: string, outDir: string): Promise<boolean> {
  // Loaded only once a k6 is found: they bring in the kit's mutant proxy and the Python launcher.
  const { PYTHON } = await import("../conformance/second-implementation/process.ts");
  const { FAIRNESS_RUNS, resultLine, runAll, startTargets, verdict } = await import("./runner/fairness.ts");
  if (!PYTHON) {
    console.log("k6: python3 not found: the core profile's runs against the second implementation were NOT run");
    return true;
  }
  const started = Date.now();
  let targets: Targets | null = null;
  try {
    targets = await startTargets();
    console.log(`k6: core profile against the second implementation at ${targets.servers.a.url} and ${targets.servers.b.url}`);
    const results = await runAll(k6, FAIRNESS_RUNS, targets, outDir);
    const wrong = results.filter((r) => verdict(r) !== null);
    for (const r of results) {
      const v = verdict(r);
      console.log(
        `k6: ${v ? "WRONG" : "ok"} ${r.run.name}: ${resultLine(r)}${v ? `\n    ${v}\n${r.output.trim().split("\n").slice(-15).join("\n")}` : ""}`,
      );
    }
    console.log(
      `k6: ${results.length - wrong.length} of ${results.length} core runs went as they must (fair to the second implementation, ` +
        `every mutant killed) in ${((Date.now() - started) / 1000).toFixed(1)} s${wrong.length ? `; wrong: ${wrong.map((r) => r.run.name).join(", ")}` : ""}`,
    );
    return wrong.length === 0;
  } finally {
    await targets?.stop();
  }
}

if (import.meta.main) main().then((code) => process.exit(code));
