/** Starts bench/bare-server.ts (a comparison baseline) and waits for the port it prints. */
import { join } from "node:path";

export interface Baseline {
  proc: ReturnType<typeof Bun.spawn>;
  base: string;
}

/** `flags`: none (the fixed answer), `--stamped`, or `--logged <file>` (see bare-server.ts). */
export async function startBaseline(capturedFile: string, ...flags: string[]): Promise<Baseline> {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "bare-server.ts"), capturedFile, ...flags], { stdout: "pipe" });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`bare-server.ts ${flags.join(" ")} exited before listening`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { proc, base: `http://127.0.0.1:${JSON.parse(text.split("\n")[0]!).port}` };
}
