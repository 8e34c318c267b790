import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverBinary } from "../test/support/binary.ts";
import { runCli, spawnServer, type ServerProcess } from "../test/support/http/process.ts";

const dir = mkdtempSync(join(tmpdir(), "gs-bin-"));
const bin = join(dir, "graph-stats");
let server: ServerProcess;

beforeAll(async () => {
  // The real binary (built once per test run), alone in an otherwise empty directory: it must need nothing beside it.
  copyFileSync(await serverBinary(), bin);
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

/** The tokens the tests below use, minted in one run of the binary (each run costs a process start). */
let minted: Promise<Map<string, string>> | undefined;
const USERS = ["bin-research-both", "bin-research-corr", "bin-research-shri", "bin-pandas-corr", "bin-pandas-shri"];
async function mint(user: string): Promise<string> {
  minted ??= runCli(["token", "create", ...USERS.flatMap((u) => ["--user", u]), "--json"], {
    bin,
    cwd: dir,
    env: { GRAPH_STATS_JWT_SECRET: "" },
  }).then((out) => {
    expect(out.code).toBe(0);
    return new Map((JSON.parse(out.stdout) as { user: string; token: string }[]).map((t) => [t.user, t.token]));
  });
  const token = (await minted).get(user);
  if (!token) throw new Error(`no token minted for ${user}`);
  return token;
}

const RESEARCH = "graph_method=tmfg&market_mode=remove&periods=5&include_graph=all&format=csv";

test("the binary refuses ewma with ledoit_wolf together with a 400 that says which to drop (shrinkage needs pearson)", async () => {
  const res = await fetch(`${server.base}/v1/graph-stats/chart?${RESEARCH}&corr_method=ewma&shrinkage=ledoit_wolf`, {
    headers: { Authorization: `Bearer ${await mint("bin-research-both")}` },
  });
  expect(res.status).toBe(400);
  const body = (await res.json()) as any;
  expect(body).toMatchObject({ success: false, data: null, errors: [{ code: "BAD_REQUEST" }] });
  expect(body.errors[0].message).toContain("use corr_method=pearson or shrinkage=none");
});

for (const option of ["corr_method=ewma&halflife=10", "shrinkage=ledoit_wolf"]) {
  test(`the binary answers tmfg, market_mode=remove, ${option}, include_graph=all as tidy CSV, and pandas reads it`, async () => {
    const token = await mint(`bin-research-${option.slice(0, 4)}`);
    const url = `${server.base}/v1/graph-stats/chart?${RESEARCH}&${option}`;
    const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/csv");
    const [header, ...rows] = text
      .trim()
      .split("\n")
      .map((line) => line.split(","));
    expect(header).toEqual(["date", "symbol", "metric", "value", "community"]);
    const dates = new Set(rows.map((r) => r[0]));
    expect(dates.size).toBe(5);
    const stockRows = rows.filter((r) => r[1] !== "");
    expect(stockRows.length).toBeGreaterThan(5 * 5 * 40);
    for (const r of stockRows) expect(r[4]).toMatch(/^\d+$/); // every point carries its community
    // Per-date graph statistics: a TMFG on n nodes has 3(n-2) edges; modularity is defined.
    const stat = (date: string, metric: string) => Number(rows.find((r) => r[0] === date && r[1] === "" && r[2] === metric)![3]);
    for (const date of dates) {
      expect(stat(date, "edges")).toBe(3 * (stat(date, "nodes") - 2));
      expect(stat(date, "modularity")).toBeGreaterThan(0);
      expect(stat(date, "avg_shortest_path")).toBeGreaterThan(0);
    }
    // docs/api.md's pandas example, run as written, where Debian's python3-pandas is installed (the
    // script says when it is not: one interpreter start instead of a check and a run).
    if (!existsSync("/usr/bin/python3")) return;
    const script = [
      "import sys, pandas as pd",
      'df = pd.read_csv(sys.argv[1], storage_options={"Authorization": "Bearer " + sys.argv[2]})',
      'metrics = df[df.symbol.notna()].pivot_table(index=["date", "symbol"], columns="metric", values="value")',
      'stats = df[df.symbol.isna()].pivot(index="date", columns="metric", values="value")',
      "print(len(df), len(metrics), len(metrics.columns), len(stats), len(stats.columns))",
    ].join("\n");
    // The CSV request above used this minute's admission; pandas asks again as another user.
    const py = Bun.spawnSync(["/usr/bin/python3", "-c", script, url, await mint(`bin-pandas-${option.slice(0, 4)}`)], {
      stdout: "pipe",
      stderr: "pipe",
    });
    if (py.exitCode !== 0 && /No module named 'pandas'/.test(py.stderr.toString())) return;
    expect(py.exitCode, py.stderr.toString()).toBe(0);
    const [nRows, nPoints, nMetrics, nDates, nStats] = py.stdout.toString().trim().split(" ").map(Number);
    expect(nRows).toBe(rows.length);
    expect([nPoints, nMetrics]).toEqual([stockRows.length / 5, 5]);
    expect([nDates, nStats]).toEqual([5, 7]);
  });
}

// Last: it stops the server, so that its whole log has been read.
test("the binary carries the checkpoint and compute workers (no fallback warning in its log)", async () => {
  expect(await server.stop()).toBe(0);
  await server.ended;
  expect(server.logs.some((l) => l.includes("listening"))).toBe(true);
  expect(server.logs.filter((l) => l.includes("checkpoint") || l.includes("compute thread"))).toEqual([]);
});
