/**
 * HTTP benchmarks, side by side in one run (issue #11 §6):
 *  1. /health and /v1/demo/chart (cached): server CPU per request of our server against a bare
 *     Bun.serve returning the same bytes and headers → ratio, target ≤ 1.25; against the same bare
 *     server stamping a new request id and time into each body; and against that one also writing
 *     the access line (the least any server answering these bodies must do: bare-server.ts).
 *     Load from wrk (one thread, closed loop), pinned to one CPU while the servers are pinned to
 *     the other; the sides alternate (bare, stamped, floor, ours, quiet, then back) over ROUNDS
 *     rounds, and each round gives a ratio.
 *  2. The live endpoint with limits raised and the computation cached: p99 at 500 requests/s,
 *     from bench/open-loop.ts (fixed-rate, no coordinated omission).
 *  3. /health while heavy uncached computations run (bench/health-under-compute.ts).
 * CPU per request is what to read: throughput depends on what else this shared machine runs.
 * `--before COMMIT` adds our server at that commit (its tree by git archive, from source, beside
 * today's node_modules) to every round: ours ÷ ours-then per round answers "what did a change add
 * per request" where a ratio to the floor in two runs hours apart cannot (they moved 1.07 → 1.20
 * with no change to the path; issue #42 item 9). `--rounds N` (default 5).
 * Run: npx bun bench/http.bench.ts [--seconds 6] [--ratios-only] [--before COMMIT] [--rounds N]   (prints a markdown section)
 */
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runCli, spawnServer } from "../test/support/http/process.ts";
import { startBaseline } from "./baseline.ts";
import { healthUnderCompute, type HealthUnderCompute } from "./health-under-compute.ts";
import { openLoop } from "./open-loop.ts";
import { median } from "./median.ts";
import { pin, wrk, wrkAvailable, WRK_MISSING, type WrkResult } from "./wrk.ts";

const secondsArg = process.argv.indexOf("--seconds");
const seconds = secondsArg > 0 ? Number(process.argv[secondsArg + 1]) : 6;
const ratiosOnly = process.argv.includes("--ratios-only");
const beforeArg = process.argv.indexOf("--before");
const BEFORE = beforeArg > 0 ? process.argv[beforeArg + 1]! : null;
const roundsArg = process.argv.indexOf("--rounds");
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 5;
const CONNECTIONS = 32;
const PATHS = ["/health", "/v1/demo/chart"] as const;
// Servers on CPU 0, wrk on the last CPU: neither takes the other's core, and both servers run on
// the same one, so their CPU per request compares like with like.
const SERVER_CPU = "0";
const LOAD_CPU = String(cpus().length - 1);
if (!wrkAvailable()) {
  console.log(`### HTTP\n\n${WRK_MISSING}`);
  console.error(WRK_MISSING);
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), "gs-bench-http-"));
const db = join(dir, "bench.sqlite");
const SECRET = "bench-secret-0123456789abcdef";

// Limits raised far above what a run sends, so every request is answered 200.
const UNLIMITED = ["--rate-per-minute", "1000000", "--rate-per-day", "100000000"];
const serveArgs = (dbPath: string) => ["--port", "0", "--db", dbPath, "--jwt-secret", SECRET, ...UNLIMITED];
// Our server as users run it: info-level access log (one JSON line per request), written to a log
// file as an operator's `serve >> graph-stats.log` would. Not a pipe to this process: draining
// ~30k lines/s took CPU from both servers, and when the pipe filled the server waited in write(2).
const ours = await spawnServer(serveArgs(db), {
  source: true,
  logFile: join(dir, "server.log"),
});
// The same server with the access log off (--log-level warn), on its own database: what the one
// line per request costs, measured in every round.
const quiet = await spawnServer([...serveArgs(join(dir, "quiet.sqlite")), "--log-level", "warn"], {
  source: true,
  logFile: join(dir, "server-quiet.log"),
});
/** `serve` at `rev`, from its source: the tree by git archive, today's node_modules linked beside it. */
async function serverAt(rev: string, args: string[], logFile: string) {
  const root = resolve(import.meta.dir, "..");
  const tree = join(dir, `at-${rev}`);
  mkdirSync(tree);
  const tar = Bun.spawnSync(["sh", "-c", `git archive '${rev}' | tar -x -C '${tree}'`], { cwd: root });
  if (tar.exitCode !== 0) throw new Error(`--before ${rev}: git archive failed: ${tar.stderr.toString()}`);
  symlinkSync(realpathSync(join(root, "node_modules")), join(tree, "node_modules"));
  const bin = join(tree, "serve-from-source.sh");
  writeFileSync(bin, `#!/bin/sh\nexec '${process.execPath}' '${join(tree, "src/cli.ts")}' "$@"\n`);
  chmodSync(bin, 0o755);
  return spawnServer(args, { bin, logFile });
}
const before = BEFORE === null ? null : await serverAt(BEFORE, serveArgs(join(dir, "before.sqlite")), join(dir, "server-before.log"));
const captured: Record<string, { body: string; headers: Record<string, string> }> = {};
for (const path of ["/health", "/v1/demo/chart"]) {
  const res = await fetch(ours.base + path, { headers: { "Accept-Encoding": "identity" } });
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!["date", "content-length"].includes(k)) headers[k] = v;
  });
  captured[path] = { body: await res.text(), headers };
}
const capturedFile = join(dir, "captured.json");
writeFileSync(capturedFile, JSON.stringify(captured));
const bare = await startBaseline(capturedFile);
const stamped = await startBaseline(capturedFile, "--stamped");
const floor = await startBaseline(capturedFile, "--logged", join(dir, "floor.log"));

type Side = "bare" | "stamped" | "floor" | "ours" | "quiet" | "before";
/** The servers compared, in the order each round runs them (and then in reverse). */
const SIDES: Partial<Record<Side, { base: string; pid: number }>> = {
  bare: { base: bare.base, pid: bare.proc.pid },
  stamped: { base: stamped.base, pid: stamped.proc.pid },
  floor: { base: floor.base, pid: floor.proc.pid },
  ours: { base: ours.base, pid: ours.proc.pid },
  quiet: { base: quiet.base, pid: quiet.proc.pid },
  ...(before ? { before: { base: before.base, pid: before.proc.pid } } : {}),
};
const LABEL: Record<Side, string> = {
  bare: "bare",
  stamped: "stamped",
  floor: "floor",
  ours: "ours",
  quiet: "ours, log off",
  before: `ours at ${BEFORE}`,
};
const SIDE_ORDER = Object.keys(SIDES) as Side[];
/** The columns of the CPU table: every side but --before's, which has a table of its own. */
const TABLE_SIDES = SIDE_ORDER.filter((side) => side !== "before");
const range = (xs: number[], digits = 2) =>
  `**${median(xs).toFixed(digits)}** (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

/** ROUNDS rounds per path; in each, the servers run twice in palindromic order, so drift within a round cancels. */
async function cpuRatios(): Promise<string> {
  const pinned = SIDE_ORDER.every((side) => pin(SIDES[side]!.pid, SERVER_CPU));
  const run = (side: Side, path: string, runSeconds = seconds) =>
    wrk(SIDES[side]!.base + path, SIDES[side]!.pid, { seconds: runSeconds, connections: CONNECTIONS, cpu: pinned ? LOAD_CPU : undefined });
  const cpuRows: string[] = [];
  const ratioRows: string[] = [];
  const beforeRows: string[] = [];
  for (const path of PATHS) {
    for (const side of SIDE_ORDER) await run(side, path, 1); // warm-up (JIT, caches), not counted
    const rounds: Record<Side, WrkResult[]>[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const round = Object.fromEntries(SIDE_ORDER.map((side) => [side, [] as WrkResult[]])) as Record<Side, WrkResult[]>;
      for (const side of [...SIDE_ORDER, ...SIDE_ORDER.toReversed()]) round[side].push(await run(side, path));
      rounds.push(round);
    }
    const sum = (rs: WrkResult[], f: (r: WrkResult) => number) => rs.reduce((n, r) => n + f(r), 0);
    const cpuPerReq = (rs: WrkResult[]) => sum(rs, (r) => r.cpuUs * r.requests) / sum(rs, (r) => r.requests);
    const rps = (rs: WrkResult[]) => sum(rs, (r) => r.rps) / rs.length;
    const all = (side: Side) => rounds.flatMap((r) => r[side]);
    const cpu = (side: Side) => median(rounds.map((r) => cpuPerReq(r[side]))).toFixed(1);
    const ratio = (side: Side, to: Side) => range(rounds.map((r) => cpuPerReq(r[side]) / cpuPerReq(r[to])));
    const errors = sum(SIDE_ORDER.flatMap(all), (r) => r.non2xx + r.socketErrors);
    const wrkBusy = Math.max(...SIDE_ORDER.flatMap(all).map((r) => r.wrkBusy));
    cpuRows.push(
      `| ${path} | ${TABLE_SIDES.map(cpu).join(" | ")} | ${median(rounds.map((r) => rps(r.bare))).toFixed(0)} | ${median(rounds.map((r) => rps(r.ours))).toFixed(0)} ` +
        `| ${median(all("bare").map((r) => r.p99)).toFixed(2)} | ${median(all("ours").map((r) => r.p99)).toFixed(2)} | ${wrkBusy.toFixed(2)} | ${errors} |`,
    );
    ratioRows.push(
      `| ${path} | ${ratio("ours", "bare")} | ${ratio("floor", "bare")} | ${ratio("ours", "floor")} | ${ratio("stamped", "bare")} | ${ratio("quiet", "stamped")} ` +
        `| ${range(rounds.map((r) => rps(r.ours) / rps(r.bare)))} |`,
    );
    if (before)
      beforeRows.push(
        `| ${path} | ${cpu("before")} | ${cpu("ours")} | ${ratio("ours", "before")} | ${ratio("before", "floor")} | ${ratio("ours", "floor")} |`,
      );
  }
  // The compute thread and the rest of the run are not pinned.
  for (const side of SIDE_ORDER) pin(SIDES[side]!.pid, `0-${LOAD_CPU}`);
  const how = pinned ? `servers pinned to CPU ${SERVER_CPU}, wrk to CPU ${LOAD_CPU} (taskset)` : "not pinned (no taskset)";
  return `### HTTP (wrk, ${seconds} s per run, ${new Date().toISOString().slice(0, 10)})

Server CPU time (user + system, from /proc/<pid>/stat) per request answered. \`wrk -t1 -c${CONNECTIONS} --latency\`, ${how};
${ROUNDS} rounds per endpoint, each running every server twice in palindromic order (${[...SIDE_ORDER, ...SIDE_ORDER.toReversed()].map((side) => LABEL[side]).join(" → ")});
figures are the median (range) of the rounds. The servers (bench/bare-server.ts for the first three):
- **bare**: \`Bun.serve\` returning the bytes and headers our server returned, the same every time;
- **stamped**: the same, writing a new request id and the time into each body and X-Request-Id (docs/api.md § The envelope, § Headers);
- **floor**: stamped, plus the access line (README.md § Operations) from our logger to a file: the least any server answering these bodies must do;
- **ours**: graph-stats as deployed (routing, envelope, request id, CORS, metrics counter, access line to a file);
- **ours, log off**: the same at \`--log-level warn\`.

| endpoint | bare CPU µs/req | stamped | floor | ours | ours, log off | bare req/s | ours req/s | bare p99 ms | ours p99 ms | wrk's busiest run (CPU/wall) | non-2xx/errors |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${cpuRows.join("\n")}

| endpoint | ours ÷ bare (target ≤ 1.25) | floor ÷ bare | ours ÷ floor | stamped ÷ bare | ours, log off ÷ stamped | throughput ours ÷ bare |
|---|---:|---:|---:|---:|---:|---:|
${ratioRows.join("\n")}${
  before
    ? `

Our server at ${BEFORE} (from source) in the same rounds, so each round compares the two side by side:

| endpoint | ${LABEL.before} CPU µs/req | ours | ours ÷ ${LABEL.before} | ${LABEL.before} ÷ floor | ours ÷ floor |
|---|---:|---:|---:|---:|---:|
${beforeRows.join("\n")}`
    : ""
}`;
}

/** The live endpoint at a fixed rate, and /health under heavy computations, after the ratios. */
async function liveSections(ratios: string): Promise<string> {
  // The live endpoint: 100 users with raised limits, the same question (so the computation is cached).
  const minted = await runCli(["token", "create", "--db", db, "--jwt-secret", SECRET, "--users", "100", "--prefix", "bench-", "--json"], {
    source: true,
  });
  const live = `${ours.base}/v1/graph-stats/chart?lookback=60`;
  const first = JSON.parse(minted.stdout)[0].token as string;
  await fetch(live, { headers: { Authorization: `Bearer ${first}` } }); // warm the result cache
  // Open-loop at a fixed 500 requests/s (latency from when each request was due): autocannon's
  // --overallRate sends in bursts and reports its own queueing as server latency.
  const tokens = (JSON.parse(minted.stdout) as { token: string }[]).map((t) => t.token);
  const l = await openLoop({ url: live, rate: 500, seconds, headers: (i) => ({ Authorization: `Bearer ${tokens[i % tokens.length]}` }) });
  const logMb = (statSync(join(dir, "server.log")).size / 2 ** 20).toFixed(0);
  // /health while heavy uncached computations run: our server (1 compute thread) against the same
  // server computing on its event loop (--compute-threads 0), one after the other.
  const inline = await spawnServer([...serveArgs(db), "--compute-threads", "0"], { source: true, logFile: join(dir, "server-inline.log") });
  const underThreads = await healthUnderCompute(ours.base, tokens, seconds);
  const underInline = await healthUnderCompute(inline.base, tokens, seconds).finally(() => inline.stop());
  const underRow = (name: string, r: HealthUnderCompute) =>
    `| ${name} | ${r.health.p50.toFixed(1)} | ${r.health.p95.toFixed(1)} | **${r.health.p99.toFixed(1)}** | ${r.health.max.toFixed(1)} | ${r.heavyComputed} | ${r.heavyComputeMsP50.toFixed(0)} |`;
  return `${ratios}

Live endpoint, 100 users with raised limits, computation cached, open loop at a fixed 500 req/s
(bench/open-loop.ts; latency counted from when each request was due): ${l.sent} requests, p50 ${l.p50} ms,
p90 ${l.p90} ms, **p99 ${l.p99} ms** (target < 10 ms), max ${l.max} ms, non-2xx ${l.non2xx}, errors ${l.errors}.
Every live request runs the full path: JWT verification, user lookup, the metering transaction
(BEGIN IMMEDIATE, insert into the audit log), the cache lookup, and the audit-log update.
Our server wrote its access log (one JSON line per request) to a file on the same disk: ${logMb} MB in this run.

/health while 4 clients keep sending heavy, never-cached live requests (bench/health-under-compute.ts: rolling
Spearman, complete graph, 120 periods × lookback 120 on the sample, a new as-of each time; /health polled every 50 ms
by 2 clients for ${seconds} s):

| server | /health p50 ms | p95 ms | p99 ms | max ms | heavy requests computed | their compute_ms p50 (with a thread: waiting for it included) |
|---|---:|---:|---:|---:|---:|---:|
${underRow("graph-stats, 1 compute thread (default)", underThreads)}
${underRow("graph-stats --compute-threads 0 (computing on the event loop)", underInline)}
`;
}

try {
  const ratios = await cpuRatios();
  if (ratiosOnly) console.log(ratios);
  else console.log(await liveSections(ratios));
} finally {
  for (const b of [bare, stamped, floor]) b.proc.kill();
  await ours.stop();
  await quiet.stop();
  await before?.stop();
  rmSync(dir, { recursive: true, force: true });
}
