/**
 * Re-runs the calling bench under `taskset` on the last CPU (Linux), as bench/engine.bench.ts
 * does: both sides of a side-by-side bench take turns on one CPU, which keeps a shared VM's
 * unequal vCPUs out of the ratios. Returns the CPU pinned to, or null when taskset is missing.
 */
import { cpus } from "node:os";

const PIN_ENV = "GRAPH_STATS_BENCH_CPU";

export function pinToOneCpu(script: string): string | null {
  const pinned = process.env[PIN_ENV];
  if (pinned !== undefined) return pinned;
  if (process.platform !== "linux" || Bun.which("taskset") === null) return null;
  const cpu = String(cpus().length - 1);
  const child = Bun.spawnSync(["taskset", "-c", cpu, process.execPath, script, ...process.argv.slice(2)], {
    env: { ...process.env, [PIN_ENV]: cpu },
    stdout: "inherit",
    stderr: "inherit",
  });
  process.exit(child.exitCode ?? 1);
}
