import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { compile, TARGETS } from "./build-targets.ts";
import { runCli, spawnServer, type ServerProcess } from "./http/test-support/process.ts";

const dir = mkdtempSync(join(tmpdir(), "gs-bin-"));
const bin = join(dir, "graph-stats");
let server: ServerProcess;

beforeAll(async () => {
  // Build the real binary into an otherwise empty directory: it must need nothing beside it.
  await compile(TARGETS[0]!, bin);
  server = await spawnServer(["--port", "0"], { bin, cwd: dir, env: { GRAPH_STATS_JWT_SECRET: "" } });
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

test("the binary alone serves health and the demo, creating its database with the sample", async () => {
  expect(existsSync(join(dir, "data/graph-stats.sqlite"))).toBe(true);
  const health = (await (await fetch(`${server.base}/health`)).json()) as any;
  expect(health.data.status).toBe("ok");
  const demo = (await (await fetch(`${server.base}/v1/demo/chart`)).json()) as any;
  expect(demo.data.type).toBe("snapshot");
  expect(demo.data.stocks.length).toBeGreaterThan(40);
});

test("the binary mints a token (generated secret, shared with serve) that the live endpoint accepts", async () => {
  const minted = await runCli(["token", "create", "--user", "bin-user", "--json"], { bin, cwd: dir, env: { GRAPH_STATS_JWT_SECRET: "" } });
  expect(minted.code).toBe(0);
  const [{ token, user }] = JSON.parse(minted.stdout);
  expect(user).toBe("bin-user");
  const res = await fetch(`${server.base}/v1/graph-stats/chart?lookback=30&periods=3`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as any;
  expect(body.data.type).toBe("rolling");
  expect(body.meta.diagnostics.data_source).toBe("synthetic");
});

test("the binary carries the checkpoint and compute workers (no fallback warning in its log)", async () => {
  await Bun.sleep(700);
  expect(server.logs.filter((l) => l.includes("checkpoint") || l.includes("compute thread"))).toEqual([]);
});

test("the binary imports CSV files, including symbols with & and - in their names", async () => {
  const files = ["R&D.csv", "AUTO-PARTS.csv"].map((name, i) => {
    const path = join(dir, name);
    writeFileSync(path, `timestamp,open,high,low,close,volume\n2025-09-29 00:00:00+05:30,${10 + i},${12 + i},${9 + i},${11 + i},500\n`);
    return path;
  });
  const out = await runCli(["import", "--universe", "pair", ...files], { bin, cwd: dir });
  expect(out.code).toBe(0);
  expect(out.stdout).toContain("2 file(s) imported");
});
