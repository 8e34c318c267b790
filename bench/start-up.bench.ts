/**
 * What a process start costs in CPU (user + system, the process and its threads): `serve` until it
 * logs "listening" on a new database without the sample, then SIGTERM; and `--version`. From source
 * (`bun src/cli.ts`, what `npm start` runs) against the compiled binary with and without bytecode,
 * in alternating rounds. Tests and operators start servers often (a restart, `--workers`, every
 * test that needs a real process), so this is the figure behind building with bytecode.
 * Run: npx bun bench/start-up.bench.ts [--rounds 8]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { compile, TARGETS } from "../src/build-targets.ts";
import { median } from "./median.ts";

const { values } = parseArgs({ options: { rounds: { type: "string", default: "8" } } });
const ROUNDS = Number(values.rounds);
const root = resolve(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "gs-bench-start-"));

console.error("building the binary with and without bytecode…");
await compile(TARGETS[0]!, join(dir, "bytecode"), { bytecode: true });
await compile(TARGETS[0]!, join(dir, "plain"), { bytecode: false });

const programs: Record<string, string[]> = {
  "from source (`bun src/cli.ts`)": [process.execPath, join(root, "src/cli.ts")],
  "binary without bytecode": [join(dir, "plain")],
  "binary with bytecode (`npm run build`)": [join(dir, "bytecode")],
};

const cpuMs = (proc: { resourceUsage(): { cpuTime: { user: bigint | number; system: bigint | number } } | undefined }): number => {
  const u = proc.resourceUsage();
  if (!u) throw new Error("no resource usage");
  return (Number(u.cpuTime.user) + Number(u.cpuTime.system)) / 1000;
};

async function serveStart(cmd: string[], round: number): Promise<number> {
  const db = join(dir, `serve-${round}-${Math.random().toString(36).slice(2)}.sqlite`);
  const proc = Bun.spawn([...cmd, "serve", "--host", "127.0.0.1", "--port", "0", "--no-sample", "--db", db], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of proc.stdout) {
    text += decoder.decode(chunk);
    if (text.includes('"msg":"listening"')) break;
  }
  proc.kill("SIGTERM");
  await proc.exited;
  return cpuMs(proc);
}

async function versionRun(cmd: string[]): Promise<number> {
  const proc = Bun.spawn([...cmd, "--version"], { stdout: "pipe", stderr: "pipe" });
  await proc.exited;
  if (proc.exitCode !== 0) throw new Error(`${cmd.join(" ")} --version exited ${proc.exitCode}`);
  return cpuMs(proc);
}

const serve: Record<string, number[]> = {};
const version: Record<string, number[]> = {};
const names = Object.keys(programs);
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? names : [...names].reverse();
  for (const name of order) {
    (serve[name] ??= []).push(await serveStart(programs[name]!, r));
    (version[name] ??= []).push(await versionRun(programs[name]!));
  }
}
rmSync(dir, { recursive: true, force: true });

const base = median(serve[names[0]!]!);
const rows = names.map((name) => {
  const s = median(serve[name]!);
  const v = median(version[name]!);
  return `| ${name} | ${s.toFixed(0)} | ${(s / base).toFixed(2)} | ${v.toFixed(0)} |`;
});
console.log(`### Start-up

\`npx bun bench/start-up.bench.ts --rounds ${ROUNDS}\`: CPU (user + system, threads included) of one process start, median of ${ROUNDS} alternating rounds. \`serve\` runs until it logs "listening" on a new database without the sample, then stops on SIGTERM.

| program | \`serve\` start (ms CPU) | vs source | \`--version\` (ms CPU) |
|---|---:|---:|---:|
${rows.join("\n")}`);
