/** serverBinary(): one build shared by every caller, and a given GRAPH_STATS_BIN used as it is. */
import { expect, test } from "bun:test";
import { statSync } from "node:fs";
import { runCli } from "./http/process.ts";
import { serverBinary } from "./binary.ts";

test("callers at the same time get the same executable, which runs", async () => {
  const [a, b] = await Promise.all([serverBinary(), serverBinary()]);
  expect(a).toBe(b);
  expect(statSync(a).mode & 0o111).not.toBe(0);
  const version = await runCli(["--version"], { bin: a });
  expect(version.code).toBe(0);
  // The build defines its commit (src/build-targets.ts): never "unknown" in a binary built from a checkout.
  expect(version.stdout.trim()).toMatch(/^graph-stats \d+\.\d+\.\d+ \(commit [0-9a-f]{7,40}; schema: SQLite \d{4}_/);
}, 300_000);

test("GRAPH_STATS_BIN, when it names a file, is used without building", async () => {
  const saved = process.env.GRAPH_STATS_BIN;
  process.env.GRAPH_STATS_BIN = process.execPath;
  try {
    expect(await serverBinary()).toBe(process.execPath);
  } finally {
    if (saved === undefined) delete process.env.GRAPH_STATS_BIN;
    else process.env.GRAPH_STATS_BIN = saved;
  }
});
