/**
 * The CLI run in this process (src/cli/run.ts), its console output captured: for tests of what a
 * command prints and returns, where a subprocess adds only its start-up (about 0.7 s each). Tests
 * of the process itself (signals, the binary, stdin) keep test/support/http/process.ts's runCli.
 */
import { runCli } from "../../src/cli/run.ts";

export async function runCliInProcess(
  argv: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const { log, error } = console;
  console.log = (...parts: unknown[]) => void out.push(`${parts.map(String).join(" ")}\n`);
  console.error = (...parts: unknown[]) => void err.push(`${parts.map(String).join(" ")}\n`);
  try {
    const code = await runCli(argv, { ...process.env, ...env });
    return { code, stdout: out.join(""), stderr: err.join("") };
  } finally {
    console.log = log;
    console.error = error;
  }
}
