/**
 * Admitted requests per second on one PostgreSQL, 1 vs 2 vs 3 server instances (issue #14): many
 * users (a token per request, rotated by wrk's Lua over USERS users), every request admitted (limits
 * far above the load), the same cached chart (a result-cache hit), so each request is one metering
 * transaction on PostgreSQL plus the HTTP work. One wrk per instance at once, connections split
 * between them; configurations alternate 1,2,3,3,2,1 so drift hits each alike. Server CPU per
 * request is read from /proc for the instances and for PostgreSQL's processes.
 * Usage: bun bench/pg-instances.bench.ts [--seconds 5] [--users 1000]
 */
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { startPostgres } from "../test/support/postgres.ts";
import { mintToken } from "../src/auth/index.ts";
import { systemClock } from "../src/clock.ts";
import { runCli, spawnServer, type ServerProcess } from "../test/support/http/process.ts";
import { cpuMs, wrkAvailable, WRK_MISSING } from "./wrk.ts";

const arg = (name: string, d: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : d);
const seconds = arg("--seconds", 5);
const USERS = arg("--users", 1000);
const CONNECTIONS = 48;
const SECRET = "bench-pg-instances-0123456789abcdef";
const PATH = "/v1/graph-stats/chart?lookback=60&graph_method=mst";

if (!wrkAvailable()) {
  console.log(WRK_MISSING);
  process.exit(2);
}

const pgdb = await startPostgres();
const migrated = await runCli(["migrate", "--database-url", pgdb.url], { source: true });
if (migrated.code !== 0) throw new Error(migrated.stderr);
const dir = mkdtempSync(join(tmpdir(), "gs-bench-pgi-"));
const tokens = await Promise.all(
  Array.from(
    { length: USERS },
    async (_, i) => (await mintToken({ secret: SECRET, userId: `bench-${i}`, ttlSeconds: 7200, clock: systemClock })).token,
  ),
);
const lua = join(dir, "users.lua");
writeFileSync(
  lua,
  `local t = {${tokens.map((t) => `"${t}"`).join(",")}}
local i = math.random(#t)
request = function()
  i = i % #t + 1
  return wrk.format("GET", nil, { ["Authorization"] = "Bearer " .. t[i] })
end
`,
);

const servers: ServerProcess[] = await Promise.all(
  [0, 1, 2].map((k) =>
    spawnServer(
      [
        "--port",
        "0",
        "--db",
        join(dir, `unused-${k}.sqlite`),
        "--database-url",
        pgdb.url,
        "--jwt-secret",
        SECRET,
        "--rate-per-minute",
        "1000000",
        "--rate-per-day",
        "100000000",
        "--log-level",
        "warn",
      ],
      {
        source: true,
        logFile: join(dir, `server-${k}.log`),
        timeoutMs: 60_000,
      },
    ),
  ),
);

/** PostgreSQL's processes (the postmaster listening on our port and its children). */
function pgPids(): number[] {
  const ps = Bun.spawnSync(["ps", "-eo", "pid=,ppid=,args="])
    .stdout.toString()
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/));
  const master = ps.find((f) => f.slice(2).join(" ").includes(`-p ${pgdb.server.port}`) && /postgres/.test(f[2]!))?.[0];
  if (!master) return [];
  return [Number(master), ...ps.filter((f) => f[1] === master).map((f) => Number(f[0]))];
}
const cpuOf = (pids: number[]) => new Map(pids.map((p) => [p, safeCpu(p)]));
function safeCpu(pid: number): number {
  try {
    return cpuMs(pid);
  } catch {
    return 0;
  }
}
/** Busy and total jiffies of the whole machine (/proc/stat). */
function machine(): { busy: number; total: number } {
  const f = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = f[3]! + f[4]!;
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

interface Run {
  n: number;
  rps: number;
  p50: number;
  p99: number;
  nonOk: number;
  serverUs: number;
  pgUs: number;
  machineBusy: number;
}

async function wrkOne(
  base: string,
  connections: number,
  secs: number,
): Promise<{ requests: number; p50: number; p99: number; nonOk: number; out: string }> {
  const proc = Bun.spawn(["wrk", "-t1", `-c${connections}`, `-d${secs}s`, "--latency", "-s", lua, base + PATH], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const lat = (pct: string) => {
    const m = out.match(new RegExp(`^\\s*${pct}%\\s+([\\d.]+)(us|ms|s)\\s*$`, "m"));
    return m ? Number(m[1]) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[m[2]!]! : NaN;
  };
  return {
    requests: Number(out.match(/(\d+) requests in/)?.[1] ?? 0),
    p50: lat("50"),
    p99: lat("99"),
    nonOk: Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0),
    out,
  };
}

async function run(n: number, secs: number): Promise<Run> {
  const used = servers.slice(0, n);
  const pg0 = cpuOf(pgPids());
  const s0 = used.map((s) => safeCpu(s.proc.pid));
  const m0 = machine();
  const t0 = performance.now();
  const results = await Promise.all(used.map((s) => wrkOne(s.base, Math.round(CONNECTIONS / n), secs)));
  const wall = (performance.now() - t0) / 1000;
  const m1 = machine();
  const serverMs = used.reduce((a, s, i) => a + safeCpu(s.proc.pid) - s0[i]!, 0);
  const pg1 = cpuOf(pgPids());
  let pgMs = 0;
  for (const [pid, c] of pg1) pgMs += c - (pg0.get(pid) ?? 0);
  const requests = results.reduce((a, r) => a + r.requests, 0);
  return {
    n,
    rps: requests / wall,
    p50: Math.max(...results.map((r) => r.p50)),
    p99: Math.max(...results.map((r) => r.p99)),
    nonOk: results.reduce((a, r) => a + r.nonOk, 0),
    serverUs: (serverMs * 1000) / requests,
    pgUs: (pgMs * 1000) / requests,
    machineBusy: (m1.busy - m0.busy) / (m1.total - m0.total),
  };
}

// Warm-up: every user created and every instance's cache and pool hot.
for (const s of servers) await wrkOne(s.base, 16, 3);
const order = [1, 2, 3, 3, 2, 1];
const runs: Run[] = [];
for (const n of order) runs.push(await run(n, seconds));
await Promise.all(servers.map((s) => s.stop("SIGTERM")));
await pgdb.stop();

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const of = (n: number) => runs.filter((r) => r.n === n);
const base1 = mean(of(1).map((r) => r.rps));
const rows = [1, 2, 3].map((n) => {
  const rs = of(n);
  const rps = mean(rs.map((r) => r.rps));
  return `| ${n} | **${Math.round(rps)}** (${rs.map((r) => Math.round(r.rps)).join(", ")}) | ${(rps / base1).toFixed(2)} | ${med(rs.map((r) => r.p50)).toFixed(1)} | ${med(rs.map((r) => r.p99)).toFixed(1)} | ${Math.round(mean(rs.map((r) => r.serverUs)))} | ${Math.round(mean(rs.map((r) => r.pgUs)))} | ${Math.round(100 * mean(rs.map((r) => r.machineBusy)))}% | ${rs.reduce((a, r) => a + r.nonOk, 0)} |`;
});
const r2 = mean(of(2).map((r) => r.rps)) / base1;
const r3 = mean(of(3).map((r) => r.rps)) / base1;
console.log(`### PostgreSQL: admitted requests per second, 1 vs 2 vs 3 instances

${USERS} users (a token per request, rotated), every request admitted (limits far above the load), the same
cached chart (\`${PATH}\`, a result-cache hit): each request is one metering transaction on the
shared PostgreSQL plus the HTTP work. One \`wrk -t1 --latency\` per instance at once, ${CONNECTIONS} connections
split between them, ${seconds} s per run, configurations in the order ${order.join(", ")}; PostgreSQL on loopback
with default durability. Machine: ${cpus().length} CPUs for the instances, PostgreSQL and wrk together.

| instances | admitted req/s (runs) | vs 1 | p50 ms (worst instance) | p99 ms (worst instance) | instances' CPU µs/req | PostgreSQL CPU µs/req | machine busy | non-2xx |
|---|---|---|---|---|---|---|---|---|
${rows.join("\n")}

Scaling: 2 instances give ${r2.toFixed(2)}× one, 3 give ${r3.toFixed(2)}×. ${
  cpus().length <= 2
    ? `On this ${cpus().length}-CPU machine it stops almost at once: the instances, PostgreSQL and wrk share the same two CPUs (machine busy column), so a second instance adds only what one left idle; the CPU per request (instances + PostgreSQL) is the figure that carries to a bigger machine, where each instance and PostgreSQL get cores of their own.`
    : `Where the ratio flattens, the machine busy column says whether the CPUs or PostgreSQL set the limit.`
}
`);
process.exit(0);
