/**
 * The live endpoint's cost against its floor (issue #22): server CPU per request of our server and
 * of bench/live-floor.ts, a cached live answer to 500 users with raised limits, on SQLite and (when
 * a PostgreSQL URL is given) on PostgreSQL. wrk sends each request with the next user's token
 * (a Lua script), pinned to one CPU while the servers share the other; the sides alternate in
 * palindromic order over `rounds` rounds, and each round gives a ratio. On PostgreSQL a side's CPU
 * is its own process's plus its database's backends'.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, spawnServer, type ServerProcess } from "../test/support/http/process.ts";
import { median } from "./median.ts";
import { readdirSync, readFileSync } from "node:fs";
import { startPostgres } from "../test/support/postgres.ts";
import { cpuMs, pin, wrk, type WrkResult } from "./wrk.ts";

export const LIVE_QUERY = "/v1/graph-stats/chart?lookback=60";
const SECRET = "bench-secret-0123456789abcdef";
const UNLIMITED = ["--rate-per-minute", "1000000", "--rate-per-day", "100000000"];
const USERS = 500;

interface Side {
  label: string;
  pid: number;
  base: string;
  /** PostgreSQL: the database whose backends' CPU counts too (the same work done in another process). */
  database?: string;
  stop(): Promise<unknown> | unknown;
}

/** CPU ms of every PostgreSQL backend serving `database`, by pid (a backend's command line names its database). */
function backendCpu(database: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "latin1").includes(` ${database} `)) out.set(pid, cpuMs(pid));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

export interface LiveCpuOptions {
  seconds: number;
  rounds: number;
  /** Which databases: SQLite, PostgreSQL (a local embedded server, one database per side) or both. */
  databases: ("sqlite" | "pg")[];
  connections?: number;
  /**
   * Seconds of load each side gets before the rounds. Our server's JIT compiler threads were still
   * busy 10–15 s into a run (per-thread CPU from /proc: ~50 µs a request in the first 10 s, none
   * after 20 s), which a 1 s warm-up charged to the first rounds; what an API vendor pays is the
   * steady state. The floor, a few dozen lines, settles at once; it warms up just as long.
   */
  warmupSeconds?: number;
  /** Extra sides: our server with these extra arguments (e.g. an ablation switch). */
  variants?: { label: string; args: string[]; env?: Record<string, string> }[];
}

async function startFloor(
  dir: string,
  captured: string,
  name: string,
  kind: "sqlite" | "pg",
  target: string,
  extra: string[] = [],
): Promise<Side> {
  const proc = Bun.spawn(
    [process.execPath, join(import.meta.dir, "live-floor.ts"), captured, join(dir, `${name}.log`), kind, target, ...extra],
    {
      stdout: "pipe",
      stderr: "inherit",
      env: { ...process.env, FLOOR_SECRET: SECRET },
    },
  );
  const reader = proc.stdout.getReader();
  let text = "";
  // A floor that never listens (its database never answered) fails the bench instead of hanging it.
  const timer = setTimeout(() => proc.kill(), 60_000);
  try {
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`live-floor.ts ${kind} (${name}) exited or did not listen within 60 s`);
      text += new TextDecoder().decode(value);
    }
  } finally {
    clearTimeout(timer);
  }
  reader.releaseLock();
  return { label: name, pid: proc.pid, base: `http://127.0.0.1:${JSON.parse(text.split("\n")[0]!).port}`, stop: () => proc.kill() };
}

const wrapServer = (label: string, s: ServerProcess): Side => ({ label, pid: s.proc.pid, base: s.base, stop: () => s.stop() });

/** Runs the comparison for one database; returns the markdown rows and the per-round ratios. */
async function compare(dir: string, db: "sqlite" | "pg", o: LiveCpuOptions): Promise<{ rows: string[]; ratio: number[] }> {
  // On PostgreSQL each side has a database of its own, so each one's backends can be told apart.
  const pg = db === "pg" ? await Promise.all([startPostgres(), startPostgres(), startPostgres()]) : null;
  const dbArgs = pg ? ["--database-url", pg[0].url] : ["--db", join(dir, "ours.sqlite")];
  const serve = (extra: string[], env?: Record<string, string>, name = "ours") =>
    spawnServer(["--port", "0", ...dbArgs, "--jwt-secret", SECRET, ...UNLIMITED, ...extra], {
      source: true,
      logFile: join(dir, `${name}-${db}-${Math.random().toString(36).slice(2)}.log`),
      env,
    });
  const ours = await serve([]);
  const minted = await runCli(
    ["token", "create", ...dbArgs, "--jwt-secret", SECRET, "--users", String(USERS), "--prefix", `live-${db}-`, "--json"],
    { source: true },
  );
  if (minted.code !== 0) throw new Error(`token create failed: ${minted.stderr}`);
  const tokens = (JSON.parse(minted.stdout) as { token: string }[]).map((t) => t.token);
  const first = await fetch(ours.base + LIVE_QUERY, { headers: { Authorization: `Bearer ${tokens[0]}` } });
  if (first.status !== 200) throw new Error(`our live endpoint answered ${first.status}: ${await first.text()}`);
  const capturedFile = join(dir, `captured-${db}.json`);
  writeFileSync(capturedFile, JSON.stringify({ body: await first.text() }));
  const script = join(dir, `tokens-${db}.lua`);
  writeFileSync(
    script,
    `local tokens = {${tokens.map((t) => `"${t}"`).join(",")}}\nlocal i = 0\nrequest = function()\n  i = i + 1\n  return wrk.format("GET", "${LIVE_QUERY}", { ["Authorization"] = "Bearer " .. tokens[(i % #tokens) + 1] })\nend\n`,
  );
  const sides: Side[] = [
    { ...(await startFloor(dir, capturedFile, "floor", db, pg ? pg[1].url : join(dir, "floor.sqlite"))), database: pg?.[1].name },
    {
      ...(await startFloor(dir, capturedFile, "floor + revocation", db, pg ? pg[2].url : join(dir, "floor-rev.sqlite"), ["--revocation"])),
      database: pg?.[2].name,
    },
    { ...wrapServer("ours", ours), database: pg?.[0].name },
  ];
  for (const v of o.variants ?? []) sides.push(wrapServer(v.label, await serve(v.args, v.env, v.label.replace(/\W+/g, "-"))));
  try {
    const serverCpu = "0";
    const loadCpu = String(cpus().length - 1);
    const pinned = sides.every((s) => pin(s.pid, serverCpu));
    const run = async (s: Side, seconds: number): Promise<WrkResult> => {
      const before = s.database ? backendCpu(s.database) : null;
      const r = await wrk(s.base + LIVE_QUERY, s.pid, {
        seconds,
        connections: o.connections ?? 32,
        cpu: pinned ? loadCpu : undefined,
        script,
      });
      if (!before) return r;
      let db = 0;
      for (const [pid, ms] of backendCpu(s.database!)) db += ms - (before.get(pid) ?? 0);
      return { ...r, cpuUs: r.cpuUs + (db * 1000) / r.requests };
    };
    for (const s of sides) await run(s, o.warmupSeconds ?? 20); // warm-up: JIT, statement caches
    const rounds: WrkResult[][][] = [];
    for (let r = 0; r < o.rounds; r++) {
      const round: WrkResult[][] = sides.map(() => []);
      for (const i of [...sides.keys(), ...[...sides.keys()].reverse()]) round[i]!.push(await run(sides[i]!, o.seconds));
      rounds.push(round);
    }
    const perReq = (rs: WrkResult[]) => rs.reduce((n, r) => n + r.cpuUs * r.requests, 0) / rs.reduce((n, r) => n + r.requests, 0);
    const bad = rounds.flat(2).reduce((n, r) => n + r.non2xx + r.socketErrors, 0);
    const ratioOf = (i: number) => rounds.map((round) => perReq(round[i]!) / perReq(round[0]!));
    const fmt = (xs: number[], d = 2) => `**${median(xs).toFixed(d)}** (${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)})`;
    const rows = sides.map(
      (s, i) =>
        `| ${db === "pg" ? "PostgreSQL" : "SQLite"} | ${s.label} | ${fmt(
          rounds.map((round) => perReq(round[i]!)),
          0,
        )} | ${i === 0 ? "1" : fmt(ratioOf(i))} | ${median(rounds.map((round) => round[i]!.reduce((n, r) => n + r.rps, 0) / round[i]!.length)).toFixed(0)} | ${bad} |`,
    );
    return { rows, ratio: ratioOf(2) };
  } finally {
    for (const s of sides) await s.stop();
    for (const d of pg ?? []) await d.stop();
  }
}

/** The markdown section: CPU per request of each side and its ratio to the floor, per database. */
export async function liveCpu(o: LiveCpuOptions): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "gs-bench-live-"));
  try {
    const rows: string[] = [];
    for (const db of o.databases) rows.push(...(await compare(dir, db, o)).rows);
    return `| database | server | CPU µs/request | ÷ floor (target ≤ 1.25) | req/s | non-2xx/errors |
|---|---|---:|---:|---:|---:|
${rows.join("\n")}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const seconds = Number(arg("--seconds") ?? 5);
  const rounds = Number(arg("--rounds") ?? 5);
  console.log(`### The live endpoint against its floor (issue #22; \`npx bun bench/live-cpu.ts --seconds ${seconds} --rounds ${rounds}\`)

Server CPU per cached live answer (user + system from /proc, on PostgreSQL plus its backends'), ${USERS} users with raised
limits, the same query, wrk sending each request with the next user's token, pinned to one CPU and the servers to the
other; each side first warmed up for ${arg("--warmup") ?? 20} s (the JIT), then ${rounds} rounds, each running every side twice in palindromic order; median (range) of the rounds. **floor**:
bench/live-floor.ts, the least any server answering this endpoint must do (jose HS256, one transaction counting the
user's minute and day and inserting the row, the cached bytes with a new id and time, the five rate-limit headers, an
UPDATE of the row's status, the access line); **floor + revocation**: plus the read of the token's jti.
`);
  console.log(
    await liveCpu({
      seconds: Number(arg("--seconds") ?? 5),
      rounds: Number(arg("--rounds") ?? 5),
      databases: (arg("--db") ?? "sqlite,pg").split(",") as ("sqlite" | "pg")[],
      connections: Number(arg("--connections") ?? 32),
      warmupSeconds: Number(arg("--warmup") ?? 20),
    }),
  );
  // The shared PostgreSQL (a child process) would keep this process alive, and `npm run bench` waits
  // for its output to end; its watcher stops the server once we are gone (as the other pg benches do).
  process.exit(0);
}
