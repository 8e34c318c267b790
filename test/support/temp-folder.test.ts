/** The test process's temp folder, and folders registered with it elsewhere, are removed once the process is gone, killed included. */
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync } from "node:fs";
import { join, resolve } from "node:path";

const PRELOAD = resolve(import.meta.dir, "temp-folder.ts");

test("a SIGKILLed test process's temp folder and a folder it registered elsewhere are removed", async () => {
  // Elsewhere: the system temp folder, outside this process's own (which a child would otherwise inherit).
  const elsewhere = mkdtempSync(join(process.env.GRAPH_STATS_SYSTEM_TMPDIR ?? "/tmp", "gs-elsewhere-"));
  const script = `import { removeWithRun } from ${JSON.stringify(PRELOAD)};
removeWithRun(${JSON.stringify(elsewhere)});
console.log(process.env.GRAPH_STATS_TEST_TMPDIR);
await Bun.sleep(60_000);`;
  const env: Record<string, string | undefined> = { ...process.env, GRAPH_STATS_TEST_TMPDIR_GRACE: "0" };
  delete env.GRAPH_STATS_TEST_TMPDIR; // a process of its own, as bun test starts
  const child = Bun.spawn([process.execPath, "--preload", PRELOAD, "-e", script], { env, stdout: "pipe" });
  const reader = child.stdout.getReader();
  const own = new TextDecoder().decode((await reader.read()).value).trim();
  expect(own).toContain("graph-stats-test-run-");
  expect([existsSync(own), existsSync(elsewhere)]).toEqual([true, true]);
  child.kill("SIGKILL");
  await child.exited;
  for (const deadline = Date.now() + 5000; Date.now() < deadline && (existsSync(own) || existsSync(elsewhere)); ) await Bun.sleep(100);
  expect([existsSync(own), existsSync(elsewhere)]).toEqual([false, false]);
}, 15_000);
