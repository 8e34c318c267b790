/**
 * CI's real-k6 step (`.ci/run`): when a k6 is found ($K6, `k6` on PATH, or a workspace k6), starts the
 * built graph-stats twice on one temporary database and runs smoke and auth against the first instance
 * and limits over both (each burst reaches both; the limiter is shared), for about ten seconds each,
 * then limits again with the same tokens, whose minute windows the first run has just filled.
 * Exit 0 when every run passed, or when no k6 was found (said plainly); 1 when any run failed.
 * Summaries go to LOAD_OUT_DIR (default .k6-out/ci/).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
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
  const outDir = resolve(process.env.LOAD_OUT_DIR || join(ROOT, ".k6-out", "ci"));
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
        SUMMARY: join(outDir, `${run.name}-summary.json`),
      };
      const proc = Bun.spawn(
        [k6, ...k6RunArgs(join(ROOT, "load", `${run.script}.js`), vars, ["-q", "--no-color", "--address", "", ...run.args])],
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
    return failed.length === 0 ? 0 : 1;
  } catch (err) {
    console.log(`k6: ${(err as Error).message}`);
    return 1;
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) main().then((code) => process.exit(code));
