/**
 * The clients' cost per call beside a bare HTTP GET of the same URL — Python's against urllib
 * (bench/clients_overhead.py), TypeScript's against fetch — on the real server (the compiled
 * binary, a repeated question answered from its result cache, so the server's part is small and
 * the same for both), and the requests a re-run of examples/sample-universe.ipynb spends with its
 * cache_dir. Markdown on stdout.
 * Run: npx bun bench/clients.bench.ts [--rounds 7] [--calls 40]
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { GraphStatsClient } from "../clients/typescript/src/index.ts";
import { sampleDb } from "../test/support/http/harness.ts";
import { runCli, spawnServer } from "../test/support/http/process.ts";
import { median } from "./median.ts";

const root = resolve(import.meta.dir, "..");
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const rounds = arg("rounds", 7);
const calls = arg("calls", 40);
const PYTHON = "/usr/bin/python3";
const env = { GRAPH_STATS_JWT_SECRET: "clients-bench-secret-0123456789abcdef" };

const dir = mkdtempSync(join(tmpdir(), "gs-clients-bench-"));
const db = sampleDb(join(dir, "db.sqlite"));
// Its log goes to a file: the Python side runs under spawnSync, which would leave a pipe undrained until the server blocked writing.
const server = await spawnServer(["--port", "0", "--db", db, "--rate-per-minute", "100000", "--rate-per-day", "1000000"], {
  env,
  logFile: join(dir, "server.log"),
});
const cli = async (...args: string[]) => (await runCli([...args, "--db", db], { env })).stdout;
const token = async (user: string) => JSON.parse(await cli("token", "create", "--user", user, "--json"))[0].token as string;
const admitted = async (user: string) => {
  const rows = JSON.parse(await cli("usage", "--user", user, "--json")) as { admitted: number }[];
  return rows.reduce((n, r) => n + r.admitted, 0);
};

try {
  // TypeScript: fetch + JSON.parse against the client's chart() (names checked, query built, result built) and rows().
  const ts = await token("bench-ts");
  const client = new GraphStatsClient({ baseUrl: server.base, token: ts });
  const query = "asof=2025-09-30&metrics=pagerank&include_graph=false";
  const runs: Record<string, () => Promise<unknown>> = {
    "bare fetch": async () =>
      (
        await fetch(`${server.base}/v1/graph-stats/chart?${query}`, {
          headers: { Authorization: `Bearer ${ts}`, Accept: "application/json" },
        })
      ).json(),
    "GraphStatsClient.chart": () => client.chart({ asof: "2025-09-30", metrics: ["pagerank"], include_graph: false }),
    "GraphStatsClient.chart().rows()": async () =>
      (await client.chart({ asof: "2025-09-30", metrics: ["pagerank"], include_graph: false })).rows(),
  };
  for (const fn of Object.values(runs)) await fn();
  const perCall: Record<string, number[]> = Object.fromEntries(Object.keys(runs).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++)
    for (const [name, fn] of Object.entries(runs)) {
      const start = Bun.nanoseconds();
      for (let i = 0; i < calls; i++) await fn();
      perCall[name]!.push((Bun.nanoseconds() - start) / calls / 1000);
    }
  const tsFigures = Object.fromEntries(Object.entries(perCall).map(([k, xs]) => [k, median(xs)]));

  // Python: the same against urllib.
  const py = Bun.spawnSync([
    PYTHON,
    join(root, "bench/clients_overhead.py"),
    server.base,
    await token("bench-py"),
    String(rounds),
    String(calls),
  ]);
  const pyFigures = py.exitCode === 0 ? (JSON.parse(py.stdout.toString()) as Record<string, number>) : null;

  // The notebook twice on one cache_dir: what the second run spends.
  const nbUser = "bench-notebook";
  const nbToken = await token(nbUser);
  const cache = join(dir, "cache");
  const runNotebook = () =>
    Bun.spawnSync([PYTHON, join(root, "examples/run_notebook.py"), join(root, "examples/sample-universe.ipynb"), "--cache", cache], {
      env: { ...process.env, GRAPH_STATS_URL: server.base, GRAPH_STATS_TOKEN: nbToken },
    });
  const first = runNotebook();
  const afterFirst = await admitted(nbUser);
  const second = runNotebook();
  const afterSecond = await admitted(nbUser);
  const http = (out: Buffer) => /HTTP requests this run: (\d+)/.exec(out.toString())?.[1] ?? "?";

  const row = (name: string, us: number, bare: number) => `| ${name} | ${us.toFixed(0)} | ${(us - bare).toFixed(0)} |`;
  const bareTs = tsFigures["bare fetch"]!;
  const lines = [
    "## Clients: overhead per call, and a notebook re-run",
    "",
    `A repeated live question (answered from the server's result cache), ${rounds} alternating rounds of ${calls} calls; the median of the rounds' mean per call.`,
    "",
    "| call | µs per call | over the bare GET |",
    "| --- | ---: | ---: |",
    ...Object.entries(tsFigures).map(([k, v]) => row(k, v, bareTs)),
    ...(pyFigures
      ? Object.entries(pyFigures).map(([k, v]) => row(`Python ${k}`, v, pyFigures["bare urllib"]!))
      : [`| Python | failed: ${py.stderr.toString().slice(0, 200)} | |`]),
    "",
    `examples/sample-universe.ipynb with one cache_dir: first run ${afterFirst} metered requests (${http(first.stdout)} HTTP requests), re-run ${afterSecond - afterFirst} metered (${http(second.stdout)} HTTP requests in all${first.exitCode || second.exitCode ? "; a run FAILED" : ""}).`,
  ];
  console.log(lines.join("\n"));
} finally {
  await server.stop();
}
